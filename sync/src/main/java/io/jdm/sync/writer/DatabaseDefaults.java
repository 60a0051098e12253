package io.jdm.sync.writer;

import io.jdm.common.sql.Identifiers;
import io.jdm.sync.ring.DdlChange;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs a CREATE TABLE while its target database has the defaults its source database had at that
 * binlog position: a table or column declared without a charset takes them, so it gets the charset
 * it got on the source, also where the target database was created with other defaults (by hand,
 * or before an ALTER DATABASE on the source, which is not replayed on the target). The database's
 * own defaults are back right after the statement.
 */
final class DatabaseDefaults implements AutoCloseable {
    private final Statement st;
    private final String restore;

    private DatabaseDefaults(Statement st, String restore) {
        this.st = st;
        this.restore = restore;
    }

    /** Switches the database's defaults if the statement needs it; closing switches them back. */
    static DatabaseDefaults enter(Statement st, DdlChange d) throws SQLException {
        if (!d.createsTable() || d.targetSchema() == null || d.targetSchema().isEmpty()
                || d.targetSchemaOptions().isEmpty()) {
            return new DatabaseDefaults(st, null);
        }
        String own;
        try (ResultSet rs = st.executeQuery("SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM "
                + "information_schema.SCHEMATA WHERE SCHEMA_NAME = " + Identifiers.literal(d.targetSchema()))) {
            if (!rs.next()) {
                return new DatabaseDefaults(st, null);
            }
            own = "CHARACTER SET " + rs.getString(1) + " COLLATE " + rs.getString(2);
        }
        if (own.equalsIgnoreCase(d.targetSchemaOptions())) {
            return new DatabaseDefaults(st, null);
        }
        String db = Identifiers.quote(d.targetSchema());
        st.execute("ALTER DATABASE " + db + " " + d.targetSchemaOptions());
        return new DatabaseDefaults(st, "ALTER DATABASE " + db + " " + own);
    }

    @Override
    public void close() throws SQLException {
        if (restore != null) {
            st.execute(restore);
        }
    }
}
