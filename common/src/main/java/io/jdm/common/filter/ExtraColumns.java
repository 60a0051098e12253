package io.jdm.common.filter;

import io.jdm.common.sql.Identifiers;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Columns a route adds to a source table's rows in its target table, with this table's values:
 * DM's {@code extract-table}, {@code extract-schema} and {@code extract-source}. They tell the
 * merged table's rows apart by the shard they came from, so shards whose keys collide merge
 * (the columns are part of the target's key). The target table must already have them, as DM
 * requires; the source table must not. Every unit writes them where it writes the source's columns,
 * and looks a row up by them as well as by its key.
 */
public record ExtraColumns(List<String> names, List<String> values) {
    public static final ExtraColumns NONE = new ExtraColumns(List.of(), List.of());

    public ExtraColumns {
        names = List.copyOf(names);
        values = List.copyOf(values);
        if (names.size() != values.size()) {
            throw new IllegalArgumentException("extra columns: " + names.size() + " names, " + values.size()
                    + " values");
        }
    }

    public boolean isEmpty() {
        return names.isEmpty();
    }

    public int size() {
        return names.size();
    }

    /** True when {@code column} is one of them (names compare case-insensitively, as MySQL's do). */
    public boolean contains(String column) {
        return names.stream().anyMatch(n -> n.equalsIgnoreCase(Objects.requireNonNull(column)));
    }

    /**
     * The {@code i}-th value as a SQL character string: hex digits behind a utf8mb4 introducer, so
     * its text means the same under every sql_mode (backslashes, ANSI_QUOTES) and it compares and
     * converts as a string into any column type, as DM's string values do.
     */
    public String literal(int i) {
        byte[] b = values.get(i).getBytes(StandardCharsets.UTF_8);
        if (b.length == 0) {
            return "''";
        }
        StringBuilder sb = new StringBuilder(b.length * 2 + 12).append("_utf8mb4 X'");
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
        }
        return sb.append('\'').toString();
    }

    /**
     * Appends {@code AND e1 = v1 AND e2 = v2 …}: the rows of the merged table that are this shard's.
     * Nothing when there are no columns.
     */
    public StringBuilder appendConditions(StringBuilder sb) {
        for (int i = 0; i < names.size(); i++) {
            sb.append(" AND ");
            Identifiers.appendQuoted(sb, names.get(i));
            sb.append(" = ").append(literal(i));
        }
        return sb;
    }
}
