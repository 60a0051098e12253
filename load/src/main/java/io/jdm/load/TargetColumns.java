package io.jdm.load;

import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The target table's columns as information_schema describes them: what {@link LoadDataRows}
 * needs to tell whether a value reaches its column the same way as LOAD DATA text as it does as a
 * literal of an INSERT.
 */
final class TargetColumns {
    private static final Set<String> NUMERIC = Set.of("tinyint", "smallint", "mediumint", "int", "bigint",
            "decimal", "float", "double");
    /** Types that store a binary string's bytes as they are, whichever kind of literal carried them. */
    private static final Set<String> BYTES = Set.of("char", "varchar", "tinytext", "text", "mediumtext", "longtext",
            "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob", "bit", "geometry", "point",
            "linestring", "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection");
    private static final Set<String> UTF8 = Set.of("utf8mb4", "utf8mb3", "utf8");
    /** Character sets in which an ASCII byte is not that ASCII character. */
    private static final Set<String> WIDE = Set.of("ucs2", "utf16", "utf16le", "utf32");

    /**
     * One column.
     *
     * @param charset the column's character set, lower case; null for types without one
     * @param generated a generated column, which takes no value
     */
    record Column(String name, String dataType, String charset, boolean generated) {
        /** An unquoted number reads the same as text: integer, fixed and floating point types. */
        boolean numeric() {
            return NUMERIC.contains(dataType);
        }

        /** A hex or bit literal stores the same bytes as the binary text of LOAD DATA. */
        boolean takesBytes() {
            return BYTES.contains(dataType);
        }

        /**
         * A UTF-8 string stores the same here whether it is read as UTF-8 or as binary: the column is
         * UTF-8 or has no character set (numbers, dates, binary strings), or the string is ASCII and
         * the column's character set writes ASCII as ASCII.
         */
        boolean sameAsBinary(boolean ascii) {
            return charset == null || UTF8.contains(charset) || (ascii && !WIDE.contains(charset));
        }
    }

    private final List<Column> all;
    private final Map<String, Column> byName;
    private final boolean invisible;

    TargetColumns(List<Column> all, boolean invisible) {
        this.all = List.copyOf(all);
        this.invisible = invisible;
        this.byName = new HashMap<>();
        for (Column c : all) {
            byName.put(c.name().toLowerCase(Locale.ROOT), c);
        }
    }

    static TargetColumns read(Connection c, TableName table) throws SQLException {
        List<Column> out = new ArrayList<>();
        boolean invisible = false;
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_SET_NAME, EXTRA "
                + "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String extra = rs.getString(4) == null ? "" : rs.getString(4).toUpperCase(Locale.ROOT);
                    String charset = rs.getString(3);
                    invisible |= extra.contains("INVISIBLE");
                    out.add(new Column(rs.getString(1), rs.getString(2).toLowerCase(Locale.ROOT),
                            charset == null ? null : charset.toLowerCase(Locale.ROOT),
                            extra.contains("GENERATED") || extra.contains("VIRTUAL") || extra.contains("STORED")
                                    || extra.contains("PERSISTENT")));
                }
            }
        }
        return new TargetColumns(out, invisible);
    }

    /** The column named {@code name} (names are case-insensitive), or null. */
    Column column(String name) {
        return byName.get(name.toLowerCase(Locale.ROOT));
    }

    /** Every column in table order: what an INSERT without a column list writes, unless some are invisible. */
    List<Column> all() {
        return all;
    }

    /** Some column is INVISIBLE: an INSERT without a column list skips it, LOAD DATA might not. */
    boolean hasInvisible() {
        return invisible;
    }

    boolean isEmpty() {
        return all.isEmpty();
    }
}
