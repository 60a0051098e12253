package io.jdm.sync.shard;

import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What optimistic shard mode compares of a table: its columns (name, type, nullability, default,
 * collation; order aside, as rows are written by column name) and its indexes (name, uniqueness,
 * columns). {@link #join} is DM's joined table of a shard group: every column and index any shard
 * has, each column in the widest type any shard gives it; where no such table exists (a column of
 * two unrelated types, an index of one name over different columns, a column some shards lack that
 * has neither a default nor NULL) the shards conflict.
 */
public record TableShape(Map<String, Col> columns, Map<String, Index> indexes) {
    private static final List<String> INTEGERS = List.of("tinyint", "smallint", "mediumint", "int", "bigint");
    private static final Pattern SIZED = Pattern.compile("(var)?(char|binary)\\((\\d+)\\)");
    private static final Pattern DECIMAL = Pattern.compile("decimal\\((\\d+),(\\d+)\\)( unsigned)?");
    private static final Pattern INTEGER =
            Pattern.compile("(tinyint|smallint|mediumint|int|bigint)(\\(\\d+\\))?( unsigned)?( zerofill)?");

    /** One column; {@code type} is COLUMN_TYPE, {@code defaultValue} COLUMN_DEFAULT as the server shows it. */
    public record Col(String name, String type, boolean nullable, String defaultValue, String collation) {
    }

    public record Index(String name, boolean unique, List<String> columns) {
    }

    /** Two shards' tables have no joined table: the columns or indexes named say why. */
    public static final class Conflict extends Exception {
        Conflict(String why) {
            super(why);
        }
    }

    /** The shape of a table as information_schema has it; null when the table does not exist. */
    public static TableShape read(Connection c, TableName t) throws SQLException {
        Map<String, Col> cols = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, "
                + "COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    cols.put(name.toLowerCase(Locale.ROOT), new Col(name, rs.getString(2).toLowerCase(Locale.ROOT),
                            "YES".equals(rs.getString(3)), rs.getString(4), rs.getString(5)));
                }
            }
        }
        if (cols.isEmpty()) {
            return null;
        }
        Map<String, Index> idx = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT INDEX_NAME, NON_UNIQUE, COLUMN_NAME FROM "
                + "information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY INDEX_NAME, "
                + "SEQ_IN_INDEX")) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    Index prev = idx.get(name.toLowerCase(Locale.ROOT));
                    List<String> on = new ArrayList<>(prev == null ? List.of() : prev.columns());
                    on.add(rs.getString(3).toLowerCase(Locale.ROOT));
                    idx.put(name.toLowerCase(Locale.ROOT), new Index(name, rs.getInt(2) == 0, List.copyOf(on)));
                }
            }
        }
        return new TableShape(cols, idx);
    }

    /** The joined table of {@code shapes} (in order, for messages named by {@code names}). */
    public static TableShape join(List<TableShape> shapes, List<String> names) throws Conflict {
        Map<String, Col> cols = new TreeMap<>();
        Map<String, String> colFrom = new TreeMap<>();
        Map<String, Index> idx = new TreeMap<>();
        Map<String, String> idxFrom = new TreeMap<>();
        for (int i = 0; i < shapes.size(); i++) {
            TableShape s = shapes.get(i);
            String who = names.get(i);
            for (Map.Entry<String, Col> e : s.columns.entrySet()) {
                Col prev = cols.get(e.getKey());
                Col mine = e.getValue();
                if (prev == null) {
                    cols.put(e.getKey(), mine);
                    colFrom.put(e.getKey(), who);
                    continue;
                }
                String type = joinType(prev.type(), mine.type());
                if (type == null || !Objects.equals(prev.collation(), mine.collation())
                        || !Objects.equals(prev.defaultValue(), mine.defaultValue())) {
                    throw new Conflict("column " + mine.name() + " is " + describe(prev) + " in "
                            + colFrom.get(e.getKey())
                            + " but " + describe(mine) + " in " + who);
                }
                cols.put(e.getKey(), new Col(prev.name(), type, prev.nullable() || mine.nullable(), prev.defaultValue(),
                        prev.collation()));
            }
            for (Map.Entry<String, Index> e : s.indexes.entrySet()) {
                Index prev = idx.get(e.getKey());
                if (prev == null) {
                    idx.put(e.getKey(), e.getValue());
                    idxFrom.put(e.getKey(), who);
                } else if (!prev.equals(e.getValue()) && !(prev.unique() == e.getValue().unique()
                        && prev.columns().equals(e.getValue().columns()))) {
                    throw new Conflict("index " + e.getValue().name() + " is " + describe(prev) + " in "
                            + idxFrom.get(e.getKey()) + " but " + describe(e.getValue()) + " in " + who);
                }
            }
        }
        for (Map.Entry<String, Col> e : cols.entrySet()) {
            Col c = e.getValue();
            if (!c.nullable() && c.defaultValue() == null) {
                List<String> lacking = new ArrayList<>();
                for (int i = 0; i < shapes.size(); i++) {
                    if (!shapes.get(i).columns.containsKey(e.getKey())) {
                        lacking.add(names.get(i));
                    }
                }
                if (!lacking.isEmpty()) {
                    throw new Conflict("column " + c.name() + " (" + describe(c) + ", from " + colFrom.get(e.getKey())
                            + ") is NOT NULL without a default, and " + String.join(", ", lacking)
                            + " lack it: their rows could not be written");
                }
            }
        }
        return new TableShape(cols, idx);
    }

    /** The wider of two column types, or null when neither holds the other's values. */
    static String joinType(String a, String b) {
        if (a.equals(b)) {
            return a;
        }
        Matcher ia = INTEGER.matcher(a);
        Matcher ib = INTEGER.matcher(b);
        if (ia.matches() && ib.matches()) {
            if (!Objects.equals(ia.group(3), ib.group(3)) || !Objects.equals(ia.group(4), ib.group(4))) {
                return null;
            }
            return INTEGERS.indexOf(ia.group(1)) >= INTEGERS.indexOf(ib.group(1)) ? a : b;
        }
        Matcher sa = SIZED.matcher(a);
        Matcher sb = SIZED.matcher(b);
        if (sa.matches() && sb.matches()) {
            if (!Objects.equals(sa.group(2), sb.group(2)) || !Objects.equals(sa.group(1), sb.group(1))) {
                return null;
            }
            return Integer.parseInt(sa.group(3)) >= Integer.parseInt(sb.group(3)) ? a : b;
        }
        Matcher da = DECIMAL.matcher(a);
        Matcher db = DECIMAL.matcher(b);
        if (da.matches() && db.matches() && Objects.equals(da.group(3), db.group(3))) {
            int sa2 = Integer.parseInt(da.group(2));
            int sb2 = Integer.parseInt(db.group(2));
            int scale = Math.max(sa2, sb2);
            int digits = Math.max(Integer.parseInt(da.group(1)) - sa2, Integer.parseInt(db.group(1)) - sb2);
            return digits + scale > 65 ? null : "decimal(" + (digits + scale) + "," + scale + ")"
                    + (da.group(3) == null ? "" : da.group(3));
        }
        return null;
    }

    /** Whether two shapes describe the same table (integer display widths aside). */
    public boolean sameAs(TableShape o) {
        if (!indexesEqual(indexes.values(), o.indexes) || !columns.keySet().equals(o.columns.keySet())) {
            return false;
        }
        for (Map.Entry<String, Col> e : columns.entrySet()) {
            Col a = e.getValue();
            Col b = o.columns.get(e.getKey());
            if (!sameType(a.type(), b.type()) || a.nullable() != b.nullable()
                    || !Objects.equals(a.defaultValue(), b.defaultValue())) {
                return false;
            }
        }
        return true;
    }

    /** The differences from {@code o}, for messages. */
    public String diff(TableShape o) {
        List<String> out = new ArrayList<>();
        for (String k : union(columns.keySet(), o.columns.keySet())) {
            Col a = columns.get(k);
            Col b = o.columns.get(k);
            if (a == null || b == null || !sameType(a.type(), b.type()) || a.nullable() != b.nullable()
                    || !Objects.equals(a.defaultValue(), b.defaultValue())) {
                out.add("column " + (a != null ? a.name() : b.name()) + ": " + (a == null ? "absent" : describe(a))
                        + " vs " + (b == null ? "absent" : describe(b)));
            }
        }
        for (String k : union(indexes.keySet(), o.indexes.keySet())) {
            Index a = indexes.get(k);
            Index b = o.indexes.get(k);
            if (a == null || b == null || a.unique() != b.unique() || !a.columns().equals(b.columns())) {
                out.add("index " + (a != null ? a.name() : b.name()) + ": " + (a == null ? "absent" : describe(a))
                        + " vs " + (b == null ? "absent" : describe(b)));
            }
        }
        return String.join("; ", out);
    }

    private static List<String> union(Collection<String> a, Collection<String> b) {
        TreeMap<String, Boolean> m = new TreeMap<>();
        a.forEach(k -> m.put(k, true));
        b.forEach(k -> m.put(k, true));
        return List.copyOf(m.keySet());
    }

    private static boolean indexesEqual(Collection<Index> a, Map<String, Index> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Index i : a) {
            Index o = b.get(i.name().toLowerCase(Locale.ROOT));
            if (o == null || o.unique() != i.unique() || !o.columns().equals(i.columns())) {
                return false;
            }
        }
        return true;
    }

    /** Integer display widths aside (MySQL 8 drops them, MariaDB keeps them). */
    private static boolean sameType(String a, String b) {
        Matcher ia = INTEGER.matcher(a);
        Matcher ib = INTEGER.matcher(b);
        if (ia.matches() && ib.matches()) {
            return ia.group(1).equals(ib.group(1)) && Objects.equals(ia.group(3), ib.group(3));
        }
        return a.equals(b);
    }

    private static String describe(Col c) {
        return c.type() + (c.nullable() ? " NULL" : " NOT NULL") + (c.defaultValue() == null ? ""
                : " DEFAULT " + c.defaultValue()) + (c.collation() == null ? "" : " COLLATE " + c.collation());
    }

    private static String describe(Index i) {
        return (i.unique() ? "UNIQUE " : "") + "(" + String.join(", ", i.columns()) + ")";
    }
}
