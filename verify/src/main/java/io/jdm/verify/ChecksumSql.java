package io.jdm.verify;

import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.TableName;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL both sides run. Every expression is derived from the SOURCE column types and is the same
 * text on both servers, so equal values give equal checksums whatever the target's own types.
 *
 * <p>A row's checksum is {@code CRC32(CONCAT_WS(',', v1..vn, g1..gn))}: each {@code v} prints the
 * value exactly (FLOAT widened to DOUBLE, since the server prints FLOAT with six digits; utf8mb4
 * text as its bytes, other charsets converted to utf8mb4; BIT as a number; binary and spatial
 * values as their bytes), and each {@code g} records NULL-ness and, for values that may contain the
 * separator, their length, so no two different rows concatenate to the same text. A chunk's
 * checksum is its row count and the SUM of its row CRCs: order-independent, evaluated once per row
 * (the expression dominates the cost), and unlike an XOR not fooled by pairs of identical rows. A
 * row too long for CONCAT_WS (NULL) adds {@link #OVERSIZE}, which no sum of CRCs reaches, so such
 * a chunk always goes to the row-by-row comparison.
 *
 * <p>A JSON column compared by type ({@link JsonTyping}) adds its types at the paths its documents
 * commonly hold ({@link #jsonTypes}), and a row whose document holds such values elsewhere
 * ({@link #jsonCovered}) hashes to NULL, so its chunk is compared row by row, as an oversized row's
 * is. Only such columns' expressions change: a table without one checksums as it always did.
 *
 * <p>A formatting difference between two servers (or a target column in another charset) can make
 * equal chunks checksum differently; that costs a row-by-row look, never a wrong verdict, because
 * rows are then compared as Java values.
 */
final class ChecksumSql {
    /**
     * Added for a row whose text is too long to hash: the largest BIGINT UNSIGNED, above any sum of
     * the CRCs of fewer than 2^32 rows, and an integer, so IFNULL stays an integer expression (a
     * DECIMAL literal made the server convert every row's CRC to a decimal).
     */
    static final java.math.BigDecimal OVERSIZE = new java.math.BigDecimal("18446744073709551615");

    private ChecksumSql() {
    }

    static String rowHash(List<Column> columns) {
        return rowHash(columns, null);
    }

    /**
     * @param target the target's columns, in the same order, or null when unknown: text in another
     *     charset than utf8mb4 is hashed as its bytes where the target column has the same charset,
     *     and converted to utf8mb4 (about three times the server's work) only where it does not
     */
    static String rowHash(List<Column> columns, List<Column> target) {
        return rowHash(columns, target, null, null);
    }

    /**
     * @param typed per column, true where its JSON types are hashed too ({@link #jsonTypes}) at its
     *     {@code paths}; null for none. A row whose document is not covered by its paths
     *     ({@link #jsonCovered}) hashes to NULL, which sends its chunk to the row-by-row look.
     */
    static String rowHash(List<Column> columns, List<Column> target, boolean[] typed, List<List<String>> paths) {
        boolean oneCollation = oneUtf8mb4Collation(columns);
        StringBuilder v = new StringBuilder("CRC32(CONCAT_WS(','");
        StringBuilder g = new StringBuilder();
        List<String> covered = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            String q = Identifiers.quote(c.name());
            boolean sameCharset = target != null && i < target.size() && sameCharset(c, target.get(i));
            v.append(", ").append(valueExpr(c, q, oneCollation, sameCharset));
            if (typed != null && typed[i]) {
                String types = jsonTypes(q, paths.get(i));
                if (types != null) {
                    v.append(", ").append(types);
                }
                covered.add(jsonCovered(q, paths.get(i)));
            }
            g.append(", ").append(guardExpr(c, q));
        }
        String hash = v.append(g).append("))").toString();
        return covered.isEmpty() ? hash : "IF(" + String.join(" AND ", covered) + ", " + hash + ", NULL)";
    }

    private static String valueExpr(Column c, String q, boolean oneCollation, boolean sameCharset) {
        return switch (kind(c)) {
            case PLAIN -> q;
            case FLOAT -> "(" + q + " * 1e0)"; // its exact value as a double, a -0 kept
            case BIT -> "CAST(" + q + " AS UNSIGNED)";
            case BYTES -> q;
            case TEXT -> isUtf8mb4Text(c) ? (oneCollation ? q : "CAST(" + q + " AS BINARY)")
                    : sameCharset ? "CAST(" + q + " AS BINARY)" : "CONVERT(" + q + " USING utf8mb4)";
        };
    }

    /**
     * The JSON types at {@code paths} of the document in {@code q}: {@code JSON_TYPE(JSON_EXTRACT(q, p))}
     * of each, comma-joined, empty where absent; null without paths. Paths hold no quote or
     * backslash ({@link TablePlan#typedPaths}), so their literals read alike under any sql_mode.
     */
    static String jsonTypes(String q, List<String> paths) {
        if (paths.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder("CONCAT_WS(','");
        for (String p : paths) {
            sb.append(", IFNULL(JSON_TYPE(JSON_EXTRACT(").append(q).append(", '").append(p).append("')), '')");
        }
        return sb.append(')').toString();
    }

    /**
     * True when every value of the document in {@code q} whose type its text does not show
     * ({@link JsonScalars}) lies at one of {@code paths}, so that {@link #jsonTypes} types them all.
     * The values at the paths are set to null ({@code JSON_REPLACE}; a path holding a non-empty
     * object or array fails the test, or its members would go unseen), and the printed rest must
     * hold no number ({@code [5}, {@code , 5}, {@code : 5}, or a document that is one) and no
     * string a date, time or opaque value prints as ({@code "2020-01-02}, {@code :04:05.000000"},
     * {@code "base64:type}). It looks for those by REPLACE and LOCATE, every digit made a 0 first:
     * REGEXP gives up on a long text in MySQL 8.0 (regexp_time_limit). Strings that merely hold such
     * characters fail it too, which costs their chunk a row-by-row look, never a verdict.
     *
     * <p>A path is applied to documents of its own root only, array paths ({@code $[0]…}) to arrays
     * and member paths ({@code $."a"…}) to objects: MySQL reads {@code [0]} of anything else as
     * that thing itself, so {@code $[0]} would null a whole object. Below the root that still holds
     * (a member that is an array in some documents and an object in others): such documents fail
     * the test.
     */
    static String jsonCovered(String q, List<String> paths) {
        List<String> arrays = paths.stream().filter(p -> p.startsWith("$[")).toList();
        List<String> objects = paths.stream().filter(p -> p.startsWith("$.")).toList();
        String scalar = paths.contains("$") ? "JSON_REPLACE(" + q + ", '$', NULL)" : q;
        String rest = paths.isEmpty() ? q : "CASE JSON_TYPE(" + q + ") WHEN 'ARRAY' THEN " + nulled(q, arrays)
                + " WHEN 'OBJECT' THEN " + nulled(q, objects) + " ELSE " + scalar + " END";
        String x = "CONCAT(', ', CONVERT(" + rest + " USING utf8mb4))";
        x = "REPLACE(REPLACE(" + x + ", ': ', ', '), '[', ', ')";
        for (char d = '1'; d <= '9'; d++) {
            x = "REPLACE(" + x + ", '" + d + "', '0')";
        }
        x = "REPLACE(" + x + ", ', -', ', 0')";
        for (String shape : new String[] {"\"0000-00-00", ":00:00.000000\"", "\"base64:type"}) {
            x = "REPLACE(" + x + ", '" + shape + "', ', 0')";
        }
        String containers = arrays.isEmpty() && objects.isEmpty() ? "" : "NOT (CASE JSON_TYPE(" + q + ") WHEN 'ARRAY' THEN "
                + holdsContainer(q, arrays) + " WHEN 'OBJECT' THEN " + holdsContainer(q, objects) + " ELSE FALSE END) AND ";
        return "(" + q + " IS NULL OR " + containers + "LOCATE(', 0', " + x + ") = 0)";
    }

    /** {@code JSON_REPLACE(q, p1, NULL, …)}, or {@code q} without paths. */
    private static String nulled(String q, List<String> paths) {
        if (paths.isEmpty()) {
            return q;
        }
        StringBuilder sb = new StringBuilder("JSON_REPLACE(").append(q);
        paths.forEach(p -> sb.append(", '").append(p).append("', NULL"));
        return sb.append(')').toString();
    }

    /** Whether a non-empty object or array is at one of {@code paths}; FALSE without paths. */
    private static String holdsContainer(String q, List<String> paths) {
        if (paths.isEmpty()) {
            return "FALSE";
        }
        StringBuilder sb = new StringBuilder("JSON_CONTAINS_PATH(").append(q).append(", 'one'");
        paths.forEach(p -> sb.append(", '").append(p).append(".*', '").append(p).append("[*]'"));
        return sb.append(')').toString();
    }

    /** Text (not JSON) stored in one and the same known charset on both sides: equal values, equal bytes. */
    private static boolean sameCharset(Column source, Column target) {
        return !"json".equals(source.dataType()) && !"json".equals(target.dataType()) && source.charset() != null
                && source.charset().equalsIgnoreCase(target.charset());
    }

    /**
     * utf8mb4 text is hashed as its bytes: no conversion work. CRC32 reads a string's bytes as they
     * are, so the column itself does; only when text of several collations meets in one CONCAT_WS
     * (an "illegal mix of collations") is each value cast to binary first, which costs a copy.
     */
    private static boolean isUtf8mb4Text(Column c) {
        return !"json".equals(c.dataType()) && "utf8mb4".equalsIgnoreCase(c.charset());
    }

    /** Every text column is utf8mb4 text of one and the same known collation. */
    private static boolean oneUtf8mb4Collation(List<Column> columns) {
        String collation = null;
        for (Column c : columns) {
            if (kind(c) != Kind.TEXT) {
                continue;
            }
            if (!isUtf8mb4Text(c) || c.collation() == null || collation != null && !collation.equals(c.collation())) {
                return false;
            }
            collation = c.collation();
        }
        return true;
    }

    private static String guardExpr(Column c, String q) {
        return switch (kind(c)) {
            case TEXT -> isUtf8mb4Text(c) ? "IFNULL(LENGTH(" + q + "), -1)" : "IFNULL(CHAR_LENGTH(" + q + "), -1)";
            case BYTES -> "IFNULL(LENGTH(" + q + "), -1)";
            default -> "ISNULL(" + q + ")";
        };
    }

    /** The expression rows are ordered by in a row-by-row comparison; Java orders values the same way. */
    static String orderExpr(Column c) {
        String q = Identifiers.quote(c.name());
        return switch (kind(c)) {
            case TEXT -> "CAST(CONVERT(" + q + " USING utf8mb4) AS BINARY)";
            case BYTES -> isSpatial(c) ? "CAST(" + q + " AS BINARY)" : q;
            default -> q;
        };
    }

    /**
     * How a column prints into the row text. PLAIN: numbers and temporals, whose text is exact and
     * never holds the separator; TEXT may hold it, so its length is part of the row.
     */
    enum Kind { PLAIN, FLOAT, BIT, BYTES, TEXT }

    static Kind kind(Column c) {
        if (c.isIntegral() || c.isTemporal()) {
            return Kind.PLAIN;
        }
        return switch (c.dataType()) {
            case "decimal", "numeric", "double", "real" -> Kind.PLAIN;
            case "float" -> Kind.FLOAT;
            case "bit" -> Kind.BIT;
            default -> c.isBinary() || isSpatial(c) ? Kind.BYTES : Kind.TEXT;
        };
    }

    static boolean isSpatial(Column c) {
        return switch (c.dataType()) {
            case "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
                    "geometrycollection", "geomcollection" -> true;
            default -> false;
        };
    }

    /** Which server a query reads, and so which of the pair's rows: see {@link #where}. */
    enum Side { SOURCE, TARGET }

    /**
     * {@code SELECT COUNT(*), SUM(IFNULL(h, OVERSIZE)), COUNT(*) FROM t WHERE range}: the compared
     * rows, the sum of their hashes, and the rows read. On the source, where the task copies only
     * the rows its {@link TablePlan#sourceWhere} selects, the first two count only those
     * ({@code IF(w, ..., NULL)}) and the last every row of the range, so the rows left out are
     * counted in the same pass that hashes the others.
     */
    static String checksum(TablePlan p, Side side, KeyRangeChunk c, List<Object> params) {
        String hash = "IFNULL(" + rowHash(p.sourceColumns, p.targetColumns, p.typedJson, p.typedPaths) + ", "
                + OVERSIZE.toPlainString() + ")";
        String w = side == Side.SOURCE && p.sourceWhere != null ? "(" + p.sourceWhere + ")" : null;
        String select = w == null ? "SELECT COUNT(*), SUM(" + hash + "), COUNT(*)"
                : "SELECT COUNT(IF(" + w + ", 1, NULL)), SUM(IF(" + w + ", " + hash + ", NULL)), COUNT(*)";
        return select + " FROM " + table(p, side).quoted() + where(p, side, c, params, false);
    }

    /** The chunk's compared rows, each side's columns read exactly, in the order Java merges them. */
    static String rows(TablePlan p, Side side, KeyRangeChunk c, List<Object> params) {
        StringBuilder sb = new StringBuilder("SELECT ")
                .append(ResultSetValues.selectList(side == Side.SOURCE ? p.sourceColumns : p.targetColumns))
                .append(" FROM ").append(table(p, side).quoted()).append(where(p, side, c, params, true))
                .append(" ORDER BY ");
        int[] order = p.orderColumns();
        for (int i = 0; i < order.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(orderExpr(p.sourceColumns.get(order[i])));
        }
        return sb.toString();
    }

    private static TableName table(TablePlan p, Side side) {
        return side == Side.SOURCE ? p.pair.source() : p.pair.target();
    }

    /**
     * The range as {@code (k1 > a1) OR (k1 = a1 AND k2 >= a2)}, spelled out rather than as a row
     * constructor, which some optimizers do not turn into an index range; the leading
     * {@code k1 >= a1} is redundant and there for the same reason. Then the pair's rows of that side:
     * on the target those that hold the pair's extra columns' values ({@link TablePair#extra()}, its
     * shard's rows of a merged table; literals, {@link ExtraColumns#literal}, the same text under
     * every sql_mode); on the source, when {@code copiedOnly}, those the task copies
     * ({@link TablePlan#sourceWhere}, the condition the dump adds to its SELECTs).
     */
    static String where(TablePlan p, Side side, KeyRangeChunk c, List<Object> params, boolean copiedOnly) {
        List<String> parts = new ArrayList<>();
        if (c.lower != null) {
            parts.add(bound(p, c.lower, true, params));
        }
        if (c.upper != null) {
            parts.add(bound(p, c.upper, false, params));
        }
        String copied = side == Side.SOURCE && copiedOnly ? p.sourceWhere : null;
        ExtraColumns only = side == Side.TARGET ? p.pair.extra() : ExtraColumns.NONE;
        if (copied != null) {
            parts.add("(" + copied + ")");
        }
        if (parts.isEmpty() && only.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(" WHERE ").append(parts.isEmpty() ? "TRUE" : String.join(" AND ", parts));
        return only.appendConditions(sb).toString();
    }

    private static String bound(TablePlan p, Object[] values, boolean lower, List<Object> params) {
        List<String> names = new ArrayList<>();
        for (int k : p.key) {
            names.add(Identifiers.quote(p.sourceColumns.get(k).name()));
        }
        int n = names.size();
        if (n == 1) {
            params.add(values[0]);
            return names.get(0) + (lower ? " >= ?" : " < ?");
        }
        StringBuilder sb = new StringBuilder("(").append(names.get(0)).append(lower ? " >= ?" : " <= ?")
                .append(" AND (");
        params.add(values[0]);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : " OR ").append('(');
            for (int j = 0; j < i; j++) {
                sb.append(names.get(j)).append(" = ? AND ");
                params.add(values[j]);
            }
            String op = i < n - 1 ? (lower ? " > ?" : " < ?") : (lower ? " >= ?" : " < ?");
            sb.append(names.get(i)).append(op).append(')');
            params.add(values[i]);
        }
        return sb.append("))").toString();
    }

    /** Binds canonical values; a FLOAT as its exact double so the range compares exactly. */
    static void bind(PreparedStatement ps, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            Object v = params.get(i);
            if (v instanceof Float f) {
                ps.setDouble(i + 1, f.doubleValue());
            } else if (v instanceof BigInteger b) {
                ps.setBigDecimal(i + 1, new java.math.BigDecimal(b));
            } else {
                ps.setObject(i + 1, v);
            }
        }
    }
}
