package io.jdm.verify;

import io.jdm.common.dumpdir.OwnerOnly;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.error.FatalException;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.JsonDocument;
import io.jdm.common.sql.TableName;
import io.jdm.common.sql.ValueEncoder;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements that would make each target table equal its source, one file per table
 * ({@code db.table.fix.sql}); nothing is executed. DELETEs come before REPLACEs in the file, so a
 * delete whose key equals a replaced key under the collation cannot remove the replaced row; each
 * kind is spooled to its own part file while chunks finish in any order.
 */
final class FixSql implements AutoCloseable {
    private final Path dir;
    /** By file name: a target table's, or one shard's of it ({@link #fileName(TablePair)}). */
    private final Map<String, TableFix> tables = new HashMap<>();

    /** Creates the directory and removes the files an earlier run left for these tables, which would be stale. */
    FixSql(Path dir, List<TablePair> pairs) {
        this.dir = dir;
        try {
            OwnerOnly.createDirectories(dir);
            for (TablePair p : pairs) {
                Files.deleteIfExists(dir.resolve(fileName(p)));
            }
        } catch (IOException e) {
            throw new FatalException("verify: cannot create the fix-sql directory " + dir + ": " + e.getMessage()
                    + "; choose a writable directory", e);
        }
    }

    /** {@code db.table.fix.sql}, with odd characters escaped as in dump file names. */
    static String fileName(TableName t) {
        return DumpFileNames.escape(t.schema()) + "." + DumpFileNames.escape(t.table()) + ".fix.sql";
    }

    /**
     * The target's file, or for a pair {@linkplain TablePair#filtered() filtered} by extra columns
     * its own, {@code db.table.c_table=1.fix.sql}: its shard's rows are compared apart, possibly by
     * another run (one per source), which must not overwrite the file of another shard.
     */
    static String fileName(TablePair p) {
        if (!p.filtered()) {
            return fileName(p.target());
        }
        StringBuilder sb = new StringBuilder(DumpFileNames.escape(p.target().schema())).append('.')
                .append(DumpFileNames.escape(p.target().table()));
        ExtraColumns e = p.extra();
        for (int i = 0; i < e.size(); i++) {
            sb.append('.').append(DumpFileNames.escape(e.names().get(i))).append('=')
                    .append(DumpFileNames.escape(e.values().get(i)));
        }
        return sb.append(".fix.sql").toString();
    }

    synchronized TableFix table(TablePlan plan) {
        return tables.computeIfAbsent(fileName(plan.pair), f -> new TableFix(dir, plan, plan.pair.source().toString()));
    }

    /**
     * A merged target table's statements: {@code plan} is any of its shards' (they share the columns
     * and the key), {@code sources} names the shards for the file's header.
     */
    synchronized TableFix table(TablePlan plan, String sources) {
        return tables.computeIfAbsent(fileName(plan.pair), f -> new TableFix(dir, plan, sources));
    }

    @Override
    public synchronized void close() {
        RuntimeException first = null;
        for (TableFix f : tables.values()) {
            try {
                f.finish();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** One table's statements. Safe for the workers that share the table. */
    static final class TableFix {
        private final TablePlan plan;
        private final String sources;
        private final Path file;
        private final Path deletes;
        private final Path replaces;
        private final Writer deleteOut;
        private final Writer replaceOut;

        private TableFix(Path dir, TablePlan plan, String sources) {
            this.plan = plan;
            this.sources = sources;
            this.file = dir.resolve(fileName(plan.pair));
            this.deletes = dir.resolve(file.getFileName() + ".delete.part");
            this.replaces = dir.resolve(file.getFileName() + ".replace.part");
            try {
                // the fix holds rows of the source: its owner's only, as a dump is
                this.deleteOut = new BufferedWriter(new java.io.OutputStreamWriter(
                        OwnerOnly.newOutputStream(deletes), StandardCharsets.UTF_8));
                this.replaceOut = new BufferedWriter(new java.io.OutputStreamWriter(
                        OwnerOnly.newOutputStream(replaces), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new FatalException("verify: cannot write " + file + ": " + e.getMessage(), e);
            }
        }

        /**
         * A row the target lacks or holds with other values: write the source's row, with the values
         * of the columns its route adds. A JSON document read with its types ({@link TypedJson}) is
         * written with them; one holding a value no SQL expression gives its type (a TIMESTAMP, an
         * opaque BLOB) is not repaired, and the file says so.
         */
        synchronized void put(Object[] source) {
            StringBuilder sb = new StringBuilder(plan.hasKey() ? "REPLACE INTO " : "INSERT INTO ");
            sb.append(plan.pair.target().quoted()).append(" (");
            List<Column> cols = plan.sourceColumns;
            boolean first = true;
            for (Column c : cols) {
                if (!c.generated()) {
                    sb.append(first ? "" : ",");
                    Identifiers.appendQuoted(sb, c.name());
                    first = false;
                }
            }
            ExtraColumns extra = plan.pair.extra();
            for (String name : extra.names()) {
                Identifiers.appendQuoted(sb.append(','), name);
            }
            sb.append(") VALUES (");
            first = true;
            for (int i = 0; i < cols.size(); i++) {
                if (!cols.get(i).generated()) {
                    sb.append(first ? "" : ",");
                    Object v = source[i];
                    if (v instanceof TypedJson t) {
                        JsonDocument d = t.document();
                        String refusal = refusal(d);
                        if (refusal != null) {
                            comment("not repaired: " + DiffRecorder.key(plan, cols, source) + ": " + refusal);
                            return;
                        }
                        v = d;
                    }
                    ValueEncoder.append(sb, cols.get(i), v);
                    first = false;
                }
            }
            for (int i = 0; i < extra.size(); i++) {
                sb.append(',').append(extra.literal(i));
            }
            write(replaceOut, sb.append(");\n"));
        }

        private static String refusal(JsonDocument d) {
            return d.typed().stream().filter(t -> t.expression() == null).map(JsonDocument.Typed::refusal).findFirst()
                    .orElse(null);
        }

        /** A line the file explains but no statement repairs (a key two shards hold: which row is right?). */
        synchronized void comment(String text) {
            write(replaceOut, "-- " + text.replace('\n', ' ') + "\n");
        }

        /**
         * A row only the target has: delete it by key, or one copy of it when there is no key; of a
         * filtered pair, the one with its shard's values.
         */
        synchronized void delete(Object[] target) {
            StringBuilder sb = new StringBuilder("DELETE FROM ").append(plan.pair.target().quoted()).append(" WHERE ");
            int[] cols = plan.orderColumns();
            for (int n = 0; n < cols.length; n++) {
                int i = cols[n];
                Column c = plan.targetColumns.get(i);
                sb.append(n == 0 ? "" : " AND ");
                Identifiers.appendQuoted(sb, c.name());
                sb.append(plan.hasKey() ? " = " : " <=> ");
                boolean castJson = "json".equals(c.dataType()) && target[i] != null;
                sb.append(castJson ? "CAST(" : "");
                ValueEncoder.append(sb, c, target[i]);
                sb.append(castJson ? " AS JSON)" : "");
            }
            plan.pair.extra().appendConditions(sb);
            write(deleteOut, sb.append(plan.hasKey() ? ";\n" : " LIMIT 1;\n"));
        }

        private static void write(Writer w, CharSequence s) {
            try {
                w.append(s);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private synchronized void finish() {
            try {
                deleteOut.close();
                replaceOut.close();
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                try (BufferedWriter out = new BufferedWriter(new java.io.OutputStreamWriter(
                        OwnerOnly.newOutputStream(tmp), StandardCharsets.UTF_8))) {
                    out.write("-- Statements that make " + plan.pair.targetRows() + " equal " + sources
                            + ". Review them before running.\n");
                    out.write("/*!40101 SET NAMES utf8mb4*/;\nSET time_zone = '+00:00';\n");
                    copy(deletes, out);
                    copy(replaces, out);
                }
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                Files.deleteIfExists(deletes);
                Files.deleteIfExists(replaces);
            } catch (IOException e) {
                throw new FatalException("verify: cannot write " + file + ": " + e.getMessage(), e);
            }
        }

        private static void copy(Path part, Writer out) throws IOException {
            try (var in = Files.newBufferedReader(part, StandardCharsets.UTF_8)) {
                in.transferTo(out);
            }
        }
    }
}
