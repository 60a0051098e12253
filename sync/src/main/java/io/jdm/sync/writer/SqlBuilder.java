package io.jdm.sync.writer;

import io.jdm.common.schema.Column;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.SqlModes;
import io.jdm.common.sql.ValueEncoder;
import io.jdm.sync.ring.RowChange.Kind;
import io.jdm.sync.ring.TableInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a writer's batch into SQL, in order. With {@code multipleRows}, consecutive changes of
 * one table and kind become one statement: multi-row INSERT/REPLACE, {@code INSERT … ON DUPLICATE
 * KEY UPDATE} for updates that keep their key, {@code DELETE … WHERE (key) IN (…)}. Safe mode
 * writes INSERT as REPLACE and UPDATE as REPLACE (DELETE of the old key first when the key
 * changes), or as upserts where the target table has columns of its own (REPLACE would reset
 * them). Keyless tables: one row per statement,
 * every column in the WHERE clause, {@code LIMIT 1}. A statement that writes an ENUM's index 0
 * runs between {@code SET SESSION sql_mode} to {@link SqlModes#REPLAY_NON_STRICT} and back to the
 * writer's own mode. A table whose route adds columns ({@link TableInfo#extra()}) writes them with
 * every row image and finds its rows by them as well as by its key: shards' keys may collide in the
 * merged table.
 */
final class SqlBuilder {
    /**
     * Binary values from this size on are sent as parameters of a server-side prepared statement
     * (their raw bytes) instead of as hex text (twice their size): a row of most of the target's
     * {@code max_allowed_packet} still fits in one packet.
     */
    static final int PARAMETER_BYTES = 8 << 10;

    private final boolean multipleRows;
    private final List<byte[]> parameters = new ArrayList<>();
    private final List<Prepared> prepared = new ArrayList<>();
    private int statementStart;
    private int statementParameters;

    /**
     * A statement of the text that has parameters: {@code [start, end)} of the text (its {@code ;}
     * excluded), and its values, {@code [from, to)} of {@link #parameters()}.
     */
    record Prepared(int start, int end, int from, int to) {
    }

    SqlBuilder(boolean multipleRows) {
        this.multipleRows = multipleRows;
    }

    /**
     * Appends the statements for {@code batch}, each followed by {@code ;}. Large binary values are
     * written as {@code ?}: {@link #parameters()} lists them in order.
     */
    void append(StringBuilder sb, List<Pending> batch, boolean safe) {
        clear();
        if (multipleRows) {
            batch = Grouper.group(batch, safe);
        }
        int i = 0;
        while (i < batch.size()) {
            Pending first = batch.get(i);
            int end = i + 1;
            if (multipleRows && groupable(first, safe)) {
                while (end < batch.size() && sameGroup(first, batch.get(end), safe)) {
                    end++;
                }
            }
            List<Pending> group = batch.subList(i, end);
            boolean nonStrict = first.kind() != Kind.DELETE && writesEnumErrorValue(group);
            if (nonStrict) {
                sb.append("SET @jdm_sql_mode = @@SESSION.sql_mode;\nSET SESSION sql_mode='")
                        .append(SqlModes.REPLAY_NON_STRICT).append("';\n");
            }
            statementStart = sb.length();
            switch (first.kind()) {
                case INSERT -> {
                    if ((safe && first.table().targetHasMoreColumns()) || first.table().spool()) {
                        upsert(sb, group);
                    } else {
                        insert(sb, group, safe ? "REPLACE" : "INSERT");
                    }
                }
                case DELETE -> delete(sb, group);
                case UPDATE -> update(sb, group, safe);
            }
            if (nonStrict) {
                // A failure before this point leaves the session non-strict, but every failure
                // closes the writer's connection (or stops the task): the next batch runs on a new one.
                sb.append("SET SESSION sql_mode = @jdm_sql_mode;\n");
            }
            i = end;
        }
    }

    /** The values of the {@code ?} in what {@link #append} wrote last, in order. */
    List<byte[]> parameters() {
        return parameters;
    }

    /**
     * Lets go of what {@link #append} wrote last. Its values are the batch's row images: kept here,
     * every writer would hold its last batch's large values after their byte budget was given back.
     */
    void clear() {
        parameters.clear();
        prepared.clear();
        statementParameters = 0;
    }

    /** The statements with parameters in what {@link #append} wrote last, in order. */
    List<Prepared> prepared() {
        return prepared;
    }

    /** Ends a statement; records it when it has parameters. */
    private void end(StringBuilder sb) {
        if (parameters.size() > statementParameters) {
            prepared.add(new Prepared(statementStart, sb.length(), statementParameters, parameters.size()));
            statementParameters = parameters.size();
        }
        sb.append(";\n");
        statementStart = sb.length();
    }

    /** A value's literal, or {@code ?} with the value kept as a parameter when it is large binary. */
    private void value(StringBuilder sb, Column col, Object v) {
        if (v instanceof byte[] b && b.length >= PARAMETER_BYTES && !"bit".equals(col.dataType())) {
            sb.append('?');
            parameters.add(b);
        } else {
            ValueEncoder.append(sb, col, v);
        }
    }

    /**
     * True when a row image written by {@code group} holds an ENUM's index 0, which only a
     * non-strict session can write back; just that statement runs non-strict.
     */
    private static boolean writesEnumErrorValue(List<Pending> group) {
        TableInfo t = group.get(0).table();
        for (Pending p : group) {
            Object[] row = p.after();
            for (int c : t.writable()) {
                if (row[c] instanceof String s && s.isEmpty() && SqlModes.isEnumErrorValue(t.column(c), s)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean groupable(Pending p, boolean safe) {
        if (p.table().keyless()) {
            return p.kind() == Kind.INSERT;
        }
        return p.kind() != Kind.UPDATE || (!safe && p.keepsIdentity());
    }

    private static boolean sameGroup(Pending a, Pending b, boolean safe) {
        return a.table() == b.table() && a.kind() == b.kind() && groupable(b, safe);
    }

    private void insert(StringBuilder sb, List<Pending> rows, String verb) {
        multiRow(sb, rows, verb);
        end(sb);
    }

    /** {@code VERB INTO t (columns) VALUES (after images...)}, without the end of the statement. */
    private void multiRow(StringBuilder sb, List<Pending> rows, String verb) {
        TableInfo t = rows.get(0).table();
        sb.append(verb).append(" INTO ").append(t.target().quoted()).append(" (");
        columnList(sb, t);
        sb.append(") VALUES ");
        for (int r = 0; r < rows.size(); r++) {
            if (r > 0) {
                sb.append(',');
            }
            values(sb, t, rows.get(r).after());
        }
    }

    private void update(StringBuilder sb, List<Pending> rows, boolean safe) {
        Pending p = rows.get(0);
        TableInfo t = p.table();
        boolean kept = p.keepsIdentity();
        if (rows.size() > 1 || (kept && (safe ? t.targetHasMoreColumns() : p.replaces()))) {
            upsert(sb, rows);
            return;
        }
        if (safe && !t.keyless()) {
            if (!kept) {
                // REPLACE removes a row of the same identity itself
                delete(sb, rows);
            }
            List<Pending> row = List.of(new Pending(Kind.INSERT, t, null, p.after(), p.keys()));
            if (t.targetHasMoreColumns()) {
                upsert(sb, row);
            } else {
                insert(sb, row, "REPLACE");
            }
            return;
        }
        sb.append("UPDATE ").append(t.target().quoted()).append(" SET ");
        boolean first = true;
        for (int c : t.writable()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            Column col = t.column(c);
            Identifiers.appendQuoted(sb, col.name());
            sb.append('=');
            value(sb, col, p.after()[c]);
        }
        where(sb, t, p.before());
        end(sb);
    }

    /** {@code INSERT … ON DUPLICATE KEY UPDATE} every written column: columns the source lacks keep their values. */
    private void upsert(StringBuilder sb, List<Pending> rows) {
        TableInfo t = rows.get(0).table();
        multiRow(sb, rows, "INSERT");
        sb.append(" ON DUPLICATE KEY UPDATE ");
        boolean first = true;
        for (int c : t.writable()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            String q = Identifiers.quote(t.column(c).name());
            sb.append(q).append("=VALUES(").append(q).append(')');
        }
        end(sb);
    }

    private void delete(StringBuilder sb, List<Pending> rows) {
        TableInfo t = rows.get(0).table();
        sb.append("DELETE FROM ").append(t.target().quoted());
        if (rows.size() == 1) {
            where(sb, t, rows.get(0).before());
            end(sb);
            return;
        }
        int[] key = t.identity();
        sb.append(" WHERE (");
        for (int k = 0; k < key.length; k++) {
            if (k > 0) {
                sb.append(',');
            }
            Identifiers.appendQuoted(sb, t.column(key[k]).name());
        }
        sb.append(") IN (");
        for (int r = 0; r < rows.size(); r++) {
            if (r > 0) {
                sb.append(',');
            }
            sb.append('(');
            for (int k = 0; k < key.length; k++) {
                if (k > 0) {
                    sb.append(',');
                }
                value(sb, t.column(key[k]), rows.get(r).before()[key[k]]);
            }
            sb.append(')');
        }
        sb.append(")");
        extraConditions(sb, t);
        end(sb);
    }

    /** {@code AND e1 = v1 …} for the columns the route adds: the row is this shard's. */
    private static void extraConditions(StringBuilder sb, TableInfo t) {
        t.extra().appendConditions(sb);
    }

    /** {@code WHERE k1 = v AND …} on the identity key, or on every column with {@code <=>} and LIMIT 1. */
    private void where(StringBuilder sb, TableInfo t, Object[] row) {
        sb.append(" WHERE ");
        int[] cols = t.keyless() ? t.writable() : t.identity();
        for (int k = 0; k < cols.length; k++) {
            if (k > 0) {
                sb.append(" AND ");
            }
            Column col = t.column(cols[k]);
            Identifiers.appendQuoted(sb, col.name());
            sb.append(t.keyless() ? " <=> " : " = ");
            value(sb, col, row[cols[k]]);
        }
        extraConditions(sb, t);
        sb.append(" LIMIT 1");
    }

    private static void columnList(StringBuilder sb, TableInfo t) {
        boolean first = true;
        for (int c : t.writable()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            Identifiers.appendQuoted(sb, t.column(c).name());
        }
        for (String e : t.extra().names()) {
            sb.append(',');
            Identifiers.appendQuoted(sb, e);
        }
    }

    private void values(StringBuilder sb, TableInfo t, Object[] row) {
        sb.append('(');
        boolean first = true;
        for (int c : t.writable()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            value(sb, t.column(c), row[c]);
        }
        for (int i = 0; i < t.extra().size(); i++) {
            sb.append(',').append(t.extra().literal(i));
        }
        sb.append(')');
    }
}
