package io.jdm.cli.check;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Renders check results as a table for people or JSON for machines. */
public final class CheckReport {
    private final List<CheckResult> results;

    public CheckReport(List<CheckResult> results) {
        this.results = List.copyOf(results);
    }

    public List<CheckResult> results() {
        return results;
    }

    public boolean anyFailed() {
        return results.stream().anyMatch(r -> r.status() == CheckResult.Status.FAIL);
    }

    public String table() {
        int wItem = Math.max(4, results.stream().mapToInt(r -> r.item().length()).max().orElse(0));
        int wInst = Math.max(8, results.stream().mapToInt(r -> r.instance().length()).max().orElse(0));
        String fmt = "%-" + wItem + "s  %-" + wInst + "s  %-6s %s%n";
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(fmt, "CHECK", "INSTANCE", "RESULT", "DETAIL"));
        for (CheckResult r : results) {
            sb.append(String.format(fmt, r.item(), r.instance(), r.status().name().toLowerCase(), r.detail()));
        }
        long fails = results.stream().filter(r -> r.status() == CheckResult.Status.FAIL).count();
        long warns = results.stream().filter(r -> r.status() == CheckResult.Status.WARN).count();
        sb.append(String.format("%n%d checks: %d passed, %d warnings, %d failed%n", results.size(),
                results.size() - fails - warns, warns, fails));
        return sb.toString();
    }

    public String json() {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("result", anyFailed() ? "fail" : "pass");
        ArrayNode arr = root.putArray("checks");
        for (CheckResult r : results) {
            ObjectNode n = arr.addObject();
            n.put("item", r.item());
            n.put("instance", r.instance());
            n.put("status", r.status().name().toLowerCase());
            n.put("detail", r.detail());
        }
        try {
            return m.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
