package io.jdm.load;

import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.SqlModes;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes back an ENUM's index 0 (the empty "error" value a non-strict source session stores),
 * which a strict load session refuses with "Data truncated". The load stays strict, so a value
 * truncated by a narrower target column still fails; only a statement the target refused on an
 * ENUM column runs again non-strict, in the same transaction, and is kept only when every warning
 * it raised is such a truncation on an ENUM column. Nothing is checked per row: the happy path
 * costs nothing.
 */
final class EnumErrorValues {
    static final int DATA_TRUNCATED = 1265;
    /** Room for every warning of a statement: MariaDB's and MySQL's largest max_error_count. */
    private static final int MAX_WARNINGS = 65535;
    private static final Pattern COLUMN = Pattern.compile("for column '(.*)' at row \\d+");

    private final TableName target;
    private Set<String> enumColumns;

    EnumErrorValues(TableName target) {
        this.target = target;
    }

    /** True when {@code e} is strict mode refusing a value of one of the target's ENUM columns. */
    boolean refusedEnum(Connection c, SQLException e) throws SQLException {
        return e.getErrorCode() == DATA_TRUNCATED && isEnum(c, column(e.getMessage()));
    }

    /**
     * Runs {@code sql} in the session's sql_mode without strictness and restores the session's mode.
     *
     * @throws SQLException 1265 again, naming the first warning that is not an ENUM's error value
     */
    void executeNonStrict(Statement st, String sql) throws SQLException {
        String mode;
        try (ResultSet rs = st.executeQuery("SELECT @@SESSION.sql_mode")) {
            rs.next();
            mode = rs.getString(1);
        }
        st.execute("SET SESSION sql_mode = " + Identifiers.literal(SqlModes.withoutStrictness(mode))
                + ", max_error_count = " + MAX_WARNINGS);
        try {
            st.execute(sql);
            check(st, false);
        } finally {
            st.execute("SET SESSION sql_mode = " + Identifiers.literal(mode) + ", max_error_count = DEFAULT");
        }
    }

    /**
     * Runs {@code sql} and refuses its warnings as {@link #check} does, every one of them counted.
     */
    void executeChecked(Statement st, String sql, boolean duplicates) throws SQLException {
        st.execute("SET SESSION max_error_count = " + MAX_WARNINGS);
        try {
            st.execute(sql);
            check(st, duplicates);
        } finally {
            st.execute("SET SESSION max_error_count = DEFAULT");
        }
    }

    /**
     * Refuses the warnings of the statement just run unless each is an ENUM's error value (or, with
     * {@code duplicates}, a row skipped as one the target already has).
     *
     * @throws SQLException naming the first other warning
     */
    private void check(Statement st, boolean duplicates) throws SQLException {
        long count;
        try (ResultSet rs = st.executeQuery("SHOW COUNT(*) WARNINGS")) {
            rs.next();
            count = rs.getLong(1);
        }
        if (count == 0) {
            return;
        }
        long seen = 0;
        try (ResultSet rs = st.executeQuery("SHOW WARNINGS")) {
            while (rs.next()) {
                seen++;
                String message = rs.getString(3);
                boolean skipped = duplicates && rs.getInt(2) == com.mysql.cj.exceptions.MysqlErrorNumbers.ER_DUP_ENTRY;
                if (!skipped && (rs.getInt(2) != DATA_TRUNCATED || !isEnum(st.getConnection(), column(message)))) {
                    throw new SQLException(message + " (besides an ENUM error value; a target column narrower "
                            + "than the source's?)", "01000", rs.getInt(2));
                }
            }
        }
        if (seen < count) {
            throw new SQLException("the statement raised " + count + " warnings, more than the " + seen
                    + " that can be checked; dump with a smaller statement-size", "01000", DATA_TRUNCATED);
        }
    }

    private boolean isEnum(Connection c, String column) throws SQLException {
        if (column == null) {
            return false;
        }
        if (enumColumns == null) {
            enumColumns = readEnumColumns(c);
        }
        return enumColumns.contains(column.toLowerCase(Locale.ROOT));
    }

    private Set<String> readEnumColumns(Connection c) throws SQLException {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME FROM information_schema.COLUMNS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND DATA_TYPE = 'enum'")) {
            ps.setString(1, target.schema());
            ps.setString(2, target.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        return out;
    }

    private static String column(String message) {
        Matcher m = message == null ? null : COLUMN.matcher(message);
        return m != null && m.find() ? m.group(1) : null;
    }
}
