package io.jdm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jdm query-status --text}: the answer of {@code /status} (or, for a task no process runs,
 * what the target holds for it) as a few lines per source for a person: stage and unit, where the
 * sync stands, the statement it stopped at or retries and why, and the binlog operators. It reads
 * the same JSON a script gets, so it shows nothing the JSON does not.
 */
final class StatusText {
    private StatusText() {
    }

    static String render(JsonNode status) {
        List<String> out = new ArrayList<>();
        if (!status.path("result").asBoolean(true) || !status.path("msg").asText().isEmpty()) {
            out.add(status.path("msg").asText());
        }
        for (JsonNode source : status.path("sources")) {
            JsonNode sub = source.path("subTaskStatus").path(0);
            String id = source.path("sourceStatus").path("source").asText();
            out.add("task " + sub.path("name").asText() + ", source " + id + ": " + sub.path("stage").asText()
                    + (unit(sub).isEmpty() ? "" : ", unit " + unit(sub)));
            if (!source.path("msg").asText().isEmpty()) {
                out.add("  " + source.path("msg").asText());
            }
            JsonNode sync = sub.path("sync");
            if (!sync.path("syncerBinlog").asText().isEmpty()) {
                out.add(line("checkpoint", sync.path("syncerBinlog").asText()
                        + gtid(sync.path("syncerBinlogGtid").asText())));
            }
            if (!sync.path("masterBinlog").asText().isEmpty()) {
                out.add(line("source at", sync.path("masterBinlog").asText() + gtid(sync.path("masterBinlogGtid")
                        .asText()) + ", " + sync.path("secondsBehindMaster").asText() + " s behind"));
            }
            JsonNode own = sub.path("jdm");
            JsonNode at = own.path("stoppedAt");
            if (at.isObject()) {
                out.add(line(at.path("state").asText().equals("retrying") ? "retrying" : "stopped at",
                        at.path("binlogPos").asText() + gtid(at.path("binlogGtid").asText()) + ": "
                                + at.path("statement").asText()));
                String error = at.path("error").asText();
                out.add(line("error", error.isEmpty() ? "in the last line of the task's log"
                        : (at.path("errorCode").asInt() == 0 ? "" : "(" + at.path("errorCode").asInt() + ") ")
                        + error));
            } else {
                for (JsonNode e : sub.path("result").path("errors")) {
                    out.add(line("error", e.path("Message").asText()));
                }
            }
            for (JsonNode o : own.path("operators")) {
                out.add(line("operator", "binlog " + o.path("op").asText() + " at " + o.path("binlogPos").asText()
                        + ": " + o.path("state").asText() + (o.path("applied").isTextual() ? " " + o.path("applied")
                        .asText() : "") + (o.path("sqls").isEmpty() ? "" : ", runs " + o.path("sqls").size()
                        + " statement(s)")));
            }
        }
        return String.join("\n", out);
    }

    private static String unit(JsonNode sub) {
        String unit = sub.path("unit").asText();
        return unit.equals("InvalidUnit") ? "" : unit;
    }

    private static String line(String label, String value) {
        return String.format("  %-11s %s", label, value);
    }

    private static String gtid(String gtid) {
        return gtid.isEmpty() ? "" : " (GTID " + gtid + ")";
    }
}
