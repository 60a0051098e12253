package io.jdm.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jdm.verify.VerifyReport.ColumnDiff;
import io.jdm.verify.VerifyReport.Result;
import io.jdm.verify.VerifyReport.RowDiff;
import io.jdm.verify.VerifyReport.TableResult;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The human table and the JSON form of a {@link VerifyReport}. */
final class ReportRenderer {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportRenderer() {
    }

    static String table(VerifyReport r) {
        List<String[]> lines = new ArrayList<>();
        // Only a report with a merged table has the collisions column, one with rows left out the filtered one.
        boolean merges = r.tables().stream().anyMatch(TableResult::merged);
        boolean filters = r.tables().stream().anyMatch(t -> t.rowsFiltered() > 0);
        List<String> head = new ArrayList<>(List.of("TABLE", "RESULT", "ROWS SOURCE", "ROWS TARGET", "CHUNKS",
                "MISSING", "EXTRA", "CHANGED"));
        if (merges) {
            head.add("COLLISIONS");
        }
        if (filters) {
            head.add("FILTERED");
        }
        lines.add(head.toArray(String[]::new));
        for (TableResult t : r.tables()) {
            List<String> l = new ArrayList<>(List.of(name(t), t.result().name(), Long.toString(t.rowsSource()),
                    Long.toString(t.rowsTarget()), t.chunksDifferent() == 0 ? Long.toString(t.chunks())
                    : t.chunks() + " (" + t.chunksDifferent() + " differ)", Long.toString(t.missing()),
                    Long.toString(t.extra()), Long.toString(t.changed())));
            if (merges) {
                l.add(Long.toString(t.collisions()));
            }
            if (filters) {
                l.add(Long.toString(t.rowsFiltered()));
            }
            lines.add(l.toArray(String[]::new));
        }
        int[] width = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                sb.append(String.format(Locale.ROOT, i < 2 ? "%-" + width[i] + "s" : "%" + width[i] + "s", l[i]));
                sb.append(i + 1 < l.length ? "  " : "\n");
            }
        }
        for (TableResult t : r.tables()) {
            if (t.result() == Result.ERROR) {
                sb.append('\n').append(name(t)).append(": ").append(t.error()).append('\n');
                if (t.merged()) {
                    sb.append("  merged from ").append(String.join(", ", t.shards())).append('\n');
                }
            } else if (!t.rows().isEmpty()) {
                sb.append('\n').append(name(t)).append(':').append('\n');
                if (t.merged()) {
                    sb.append("  merged from ").append(String.join(", ", t.shards())).append('\n');
                }
                for (RowDiff d : t.rows()) {
                    sb.append("  ").append(String.format(Locale.ROOT, "%-8s", d.kind()))
                            .append(d.kind().name().length() < 8 ? "" : " ").append(d.key());
                    if (d.detail() != null) {
                        sb.append("  (").append(d.detail()).append(')');
                    }
                    for (ColumnDiff c : d.columns()) {
                        sb.append("\n      ").append(c.column()).append(": source ").append(c.source())
                                .append(", target ").append(c.target());
                    }
                    sb.append('\n');
                }
                if (t.differingRows() > t.rows().size()) {
                    sb.append("  … and ").append(t.differingRows() - t.rows().size()).append(" more\n");
                }
            }
        }
        sb.append('\n').append(summary(r)).append('\n');
        return sb.toString();
    }

    static String summary(VerifyReport r) {
        long match = r.tables().stream().filter(t -> t.result() == Result.MATCH).count();
        long diff = r.tables().stream().filter(t -> t.result() == Result.DIFFERENT).count();
        long err = r.tables().stream().filter(t -> t.result() == Result.ERROR).count();
        long rows = r.tables().stream().mapToLong(TableResult::rowsSource).sum();
        long filtered = r.tables().stream().mapToLong(TableResult::rowsFiltered).sum();
        double secs = r.elapsed().toMillis() / 1000.0;
        return String.format(Locale.ROOT, "verify: %d tables match, %d differ, %d failed; %d source rows%s in %.1f s"
                + " (%.0f rows/s)%s", match, diff, err, rows,
                filtered == 0 ? "" : " (and " + filtered + " filtered out by the task's expression filters)", secs,
                secs > 0 ? rows / secs : 0.0,
                r.snapshotPosition() == null ? "" : " at source position " + r.snapshotPosition());
    }

    static String json(VerifyReport r) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("matches", r.matches());
        root.put("exitCode", r.exitCode());
        root.put("elapsedMillis", r.elapsed().toMillis());
        root.put("snapshotPosition", r.snapshotPosition() == null ? null : r.snapshotPosition().toString());
        List<Map<String, Object>> tables = new ArrayList<>();
        for (TableResult t : r.tables()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source", t.source().toString());
            m.put("target", t.target().toString());
            m.put("result", t.result().name());
            m.put("rowsSource", t.rowsSource());
            m.put("rowsTarget", t.rowsTarget());
            m.put("rowsFiltered", t.rowsFiltered());
            m.put("chunks", t.chunks());
            m.put("chunksDifferent", t.chunksDifferent());
            m.put("missing", t.missing());
            m.put("extra", t.extra());
            m.put("changed", t.changed());
            if (t.merged()) {
                m.put("collisions", t.collisions());
                m.put("shards", t.shards());
            }
            m.put("error", t.error());
            List<Map<String, Object>> rows = new ArrayList<>();
            for (RowDiff d : t.rows()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("kind", d.kind().name());
                row.put("key", d.key());
                if (d.detail() != null) {
                    row.put("detail", d.detail());
                }
                List<Map<String, String>> cols = new ArrayList<>();
                for (ColumnDiff c : d.columns()) {
                    Map<String, String> cm = new LinkedHashMap<>();
                    cm.put("column", c.column());
                    cm.put("source", c.source());
                    cm.put("target", c.target());
                    cols.add(cm);
                }
                row.put("columns", cols);
                rows.add(row);
            }
            m.put("rows", rows);
            tables.add(m);
        }
        root.put("tables", tables);
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String name(TableResult t) {
        if (t.merged()) {
            return t.target() + " <- " + t.shards().size() + " shards";
        }
        return t.source().equals(t.target()) ? t.source().toString() : t.source() + " -> " + t.target();
    }
}
