package io.jdm.verify;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How one table pair is compared: the columns (the source's written columns, matched by name on the
 * target), which of them form the key that orders and chunks the rows, which hold JSON (and which of
 * those are MySQL's on both sides, compared by type too: {@link JsonTyping}), and which of the
 * source's rows the task copies.
 */
final class TablePlan {
    /**
     * Documents read to learn a JSON column's paths. A document with a number or a date elsewhere
     * sends its chunk to the row-by-row look, so this only has to cover what most rows hold.
     */
    static final int SAMPLE_ROWS = 100;
    /** Paths per JSON column the checksum asks types at: each costs a JSON_EXTRACT per row. */
    static final int CHECKSUM_PATHS = 64;
    private static final Pattern JSON_CHECK = Pattern.compile("(?i)^\\s*json_valid\\(`((?:[^`]|``)+)`\\)\\s*$");

    final TablePair pair;
    final TableSchema sourceSchema;
    /** Compared columns, source side. */
    final List<Column> sourceColumns;
    /** The same columns on the target, index for index. */
    final List<Column> targetColumns;
    /** Positions in the compared columns of the key, in key order; empty when the table has no key. */
    final int[] key;
    final boolean[] json;
    /** The JSON columns compared by value and type ({@link JsonTyping}); all false when compared by text. */
    final boolean[] typedJson;
    /**
     * Per column, the paths the chunk checksum asks the JSON types at ({@link ChecksumSql#jsonTypes}):
     * those the first {@link #SAMPLE_ROWS} source rows' documents hold the most, at most
     * {@link #CHECKSUM_PATHS}; empty for a column not compared by type.
     */
    final List<List<String>> typedPaths;
    /**
     * The condition the source rows the task copies meet (its expression filters), null for all:
     * only they are compared, so a row the task leaves out is neither missing nor fixed. The target
     * is read whole, so a row there that the task would have left out is extra.
     */
    final String sourceWhere;

    private TablePlan(TablePair pair, TableSchema sourceSchema, List<Column> sourceColumns,
                      List<Column> targetColumns, int[] key, boolean[] json, boolean[] typedJson,
                      List<List<String>> typedPaths, String sourceWhere) {
        this.pair = pair;
        this.sourceSchema = sourceSchema;
        this.sourceColumns = List.copyOf(sourceColumns);
        this.targetColumns = List.copyOf(targetColumns);
        this.key = key;
        this.json = json;
        this.typedJson = typedJson;
        this.typedPaths = List.copyOf(typedPaths);
        this.sourceWhere = sourceWhere == null || sourceWhere.isBlank() ? null : sourceWhere;
    }

    boolean hasKey() {
        return key.length > 0;
    }

    /** The single integer key column, the case chunked by arithmetic on min/max. */
    Optional<Column> integerKey() {
        return key.length == 1 && sourceColumns.get(key[0]).isIntegral()
                ? Optional.of(sourceColumns.get(key[0])) : Optional.empty();
    }

    /** Positions that order rows: the key, or every column for a table without one. */
    int[] orderColumns() {
        if (hasKey()) {
            return key;
        }
        int[] all = new int[sourceColumns.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return all;
    }

    /** True when a JSON column is compared by type: see {@link JsonTypeCheck}. */
    boolean hasTypedJson() {
        for (boolean t : typedJson) {
            if (t) {
                return true;
            }
        }
        return false;
    }

    boolean isKeyColumn(int index) {
        for (int k : key) {
            if (k == index) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads both schemas and matches them; a mismatch the comparison cannot work around is a {@link PlanException}.
     *
     * @param where the source table's condition for the rows the task copies ({@link VerifyConfig#tableWhere})
     * @param typing how the servers let MySQL JSON columns be compared
     */
    static TablePlan prepare(Connection source, Connection target, TablePair pair, Function<TableSchema, String> where,
                             JsonTyping typing) throws SQLException {
        TableSchema s = SchemaReader.read(source, pair.source());
        TableSchema t;
        try {
            t = SchemaReader.read(target, pair.target());
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTable(e)) {
                throw new PlanException("table " + pair.target() + " does not exist on the target");
            }
            throw e;
        }
        requireExtraColumns(pair, s, t);
        List<String> keyNames = s.identityKey();
        List<Column> sc = new ArrayList<>();
        for (Column c : s.columns()) {
            if (!c.generated() || keyNames.stream().anyMatch(k -> k.equalsIgnoreCase(c.name()))) {
                sc.add(c);
            }
        }
        List<Column> tc = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        for (Column c : sc) {
            Optional<Column> m = t.column(c.name());
            m.ifPresent(tc::add);
            if (m.isEmpty()) {
                absent.add(c.name());
            }
        }
        if (!absent.isEmpty()) {
            throw new PlanException("target table " + pair.target() + " has no column " + String.join(", ", absent)
                    + "; align the target's schema with the source before verifying");
        }
        int[] key = new int[keyNames.size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = indexOf(sc, keyNames.get(i));
        }
        Set<String> jsonNames = new HashSet<>(jsonChecked(source, pair.source()));
        jsonNames.addAll(jsonChecked(target, pair.target()));
        boolean[] json = new boolean[sc.size()];
        for (int i = 0; i < json.length; i++) {
            json[i] = "json".equals(sc.get(i).dataType()) || "json".equals(tc.get(i).dataType())
                    || jsonNames.contains(sc.get(i).name().toLowerCase(Locale.ROOT));
        }
        boolean[] typed = new boolean[sc.size()];
        for (int i = 0; i < typed.length; i++) {
            typed[i] = typing.typed() && key.length > 0 && sc.get(i).isJson() && tc.get(i).isJson();
        }
        return new TablePlan(pair, s, sc, tc, key, json, typed, samplePaths(source, pair.source(), sc, typed),
                where.apply(s));
    }

    /**
     * Per typed column, the paths of its first {@link #SAMPLE_ROWS} documents
     * ({@link JsonScalars#commonPaths}) but those with a quote or backslash in a key, whose SQL
     * literal would depend on the sql_mode.
     */
    private static List<List<String>> samplePaths(Connection source, TableName table, List<Column> columns,
                                                  boolean[] typed) throws SQLException {
        List<Column> read = new ArrayList<>();
        for (int i = 0; i < typed.length; i++) {
            if (typed[i]) {
                read.add(columns.get(i));
            }
        }
        List<List<String>> docs = new ArrayList<>();
        read.forEach(c -> docs.add(new ArrayList<>()));
        if (!read.isEmpty()) {
            try (PreparedStatement ps = source.prepareStatement("SELECT " + ResultSetValues.selectList(read) + " FROM "
                    + table.quoted() + " LIMIT " + SAMPLE_ROWS);
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    for (int k = 0; k < read.size(); k++) {
                        String d = rs.getString(k + 1);
                        if (d != null) {
                            docs.get(k).add(d);
                        }
                    }
                }
            }
        }
        List<List<String>> out = new ArrayList<>();
        int k = 0;
        for (boolean t : typed) {
            out.add(t ? JsonScalars.commonPaths(docs.get(k++), CHECKSUM_PATHS).stream()
                    .filter(p -> p.indexOf('\\') < 0 && p.indexOf('\'') < 0).toList() : List.of());
        }
        return out;
    }

    /**
     * The columns a pair's route adds select its rows of the target, so the target must have them
     * (the load requires the same) and the source must not: its own column of that name would be
     * compared as data while the filter said otherwise.
     */
    private static void requireExtraColumns(TablePair pair, TableSchema source, TableSchema target)
            throws PlanException {
        List<String> absent = new ArrayList<>();
        List<String> clash = new ArrayList<>();
        for (String name : pair.extra().names()) {
            if (target.column(name).isEmpty()) {
                absent.add(name);
            }
            if (source.column(name).isPresent()) {
                clash.add(name);
            }
        }
        if (!absent.isEmpty()) {
            throw new PlanException("target table " + pair.target() + " has no column " + String.join(", ", absent)
                    + ", which the route of " + pair.source() + " adds (extract-table, extract-schema, "
                    + "extract-source); create the target table with it, as the load requires");
        }
        if (!clash.isEmpty()) {
            throw new PlanException("source table " + pair.source() + " has a column " + String.join(", ", clash)
                    + ", which its route adds in the target (extract-table, extract-schema, extract-source); "
                    + "name a column the source table does not have as the route's target-column");
        }
    }

    private static int indexOf(List<Column> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        throw new IllegalStateException("key column " + name + " is not a compared column");
    }

    /**
     * MariaDB's JSON is LONGTEXT with a {@code json_valid(col)} check; information_schema only shows
     * the check. MySQL has no TABLE_NAME there (and a real JSON type), so a failure means "none".
     */
    private static Set<String> jsonChecked(Connection c, TableName table) {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT CHECK_CLAUSE FROM information_schema.CHECK_CONSTRAINTS "
                + "WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Matcher m = JSON_CHECK.matcher(rs.getString(1));
                    if (m.matches()) {
                        out.add(m.group(1).replace("``", "`").toLowerCase(Locale.ROOT));
                    }
                }
            }
        } catch (SQLException e) {
            return Set.of();
        }
        return out;
    }

    /** A table that cannot be compared as configured; its message is the user's line. */
    static final class PlanException extends SQLException {
        private static final long serialVersionUID = 1L;

        PlanException(String message) {
            super(message);
        }
    }
}
