package io.jdm.common.dumpdir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jdm.common.error.ErrorClassifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code jdm-chunk-plan}: the chunks a lock-free dump reads, written once before the first of
 * them is read, so that a dump resumed after a kill reads exactly the same chunks. One JSON object
 * per line: first the settings the plan depends on, then one line per table with its column
 * fingerprint and the WHERE condition of each chunk in order (null: the whole table). The first
 * range of a table has no lower bound and the last none upper, so the chunks cover the key space
 * whatever rows are written meanwhile. The name holds no {@code .sql}: myloader, TiDB Lightning
 * and jdm's load ({@link DumpFileNames#parse}) pass it by.
 *
 * @param settings what the plan was made with ({@code rows}, {@code where}, {@code compress}):
 *                 a dump with other settings cannot resume it
 */
public record ChunkPlan(String settings, List<Table> tables) {
    public static final String NAME = "jdm-chunk-plan";

    /** One table: its columns' fingerprint, the key order of its reads and its chunks' conditions. */
    public record Table(String schema, String table, String fingerprint, String orderBy, List<String> conditions) {
        public Table {
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(table, "table");
            conditions = java.util.Collections.unmodifiableList(new ArrayList<>(conditions)); // may hold null
        }
    }

    public ChunkPlan {
        Objects.requireNonNull(settings, "settings");
        tables = List.copyOf(tables);
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append(JsonLines.MAPPER.createObjectNode().put("settings", settings)).append('\n');
        for (Table t : tables) {
            ObjectNode n = JsonLines.MAPPER.createObjectNode().put("schema", t.schema()).put("table", t.table())
                    .put("fingerprint", t.fingerprint()).put("orderBy", t.orderBy());
            ArrayNode chunks = n.putArray("chunks");
            t.conditions().forEach(chunks::add);
            sb.append(n).append('\n');
        }
        return sb.toString();
    }

    /** Writes {@code dir/jdm-chunk-plan} atomically and durably: a resume reads all of it or none. */
    public void writeTo(Path dir) throws IOException {
        AtomicFile.write(dir, NAME, render());
    }

    /** Reads {@code dir/jdm-chunk-plan}; empty when there is none (not a lock-free dump). */
    public static Optional<ChunkPlan> readFrom(Path dir) throws IOException {
        Optional<List<String>> lines = AtomicFile.readLines(dir, NAME);
        return lines.isEmpty() ? Optional.empty() : Optional.of(parse(lines.get()));
    }

    /** True when {@code dir} holds a lock-free dump, complete or not. */
    public static boolean existsIn(Path dir) {
        return Files.exists(dir.resolve(NAME));
    }

    static ChunkPlan parse(List<String> lines) throws IOException {
        String settings = null;
        List<Table> tables = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            try {
                JsonNode n = JsonLines.MAPPER.readTree(line);
                if (settings == null) {
                    settings = n.get("settings").asText();
                    continue;
                }
                List<String> conditions = new ArrayList<>();
                n.get("chunks").forEach(c -> conditions.add(c.isNull() ? null : c.asText()));
                tables.add(new Table(n.get("schema").asText(), n.get("table").asText(), text(n, "fingerprint"),
                        text(n, "orderBy"), conditions));
            } catch (IOException | RuntimeException e) {
                throw new IOException(NAME + " line " + (i + 1) + " cannot be read (" + ErrorClassifier.oneLine(e)
                        + "); delete the dump directory and dump again");
            }
        }
        if (settings == null) {
            throw new IOException(NAME + " is empty; delete the dump directory and dump again");
        }
        return new ChunkPlan(settings, tables);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
