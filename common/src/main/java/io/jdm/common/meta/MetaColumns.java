package io.jdm.common.meta;

import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * How a meta table made by an earlier version gets a column a later one needs: the one upgrade
 * path of the meta schema. Rows already there take the column's default. One column per statement
 * (TiDB before 6.2 changes one at a time); another process adding the same column at the same
 * moment makes the second attempt a duplicate column, which is fine.
 */
public final class MetaColumns {
    /** ER_DUP_FIELDNAME. */
    private static final int DUPLICATE_COLUMN = 1060;

    private MetaColumns() {
    }

    /** Adds {@code column} with {@code definition} (type, default, position) unless the table has it. */
    public static void addIfMissing(Connection c, TableName table, String column, String definition)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            ps.setString(3, column);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getInt(1) > 0) {
                    return;
                }
            }
        }
        try (Statement st = c.createStatement()) {
            st.execute("ALTER TABLE " + table.quoted() + " ADD COLUMN " + Identifiers.quote(column) + " " + definition);
        } catch (SQLException e) {
            if (e.getErrorCode() != DUPLICATE_COLUMN) {
                throw e;
            }
        }
    }
}
