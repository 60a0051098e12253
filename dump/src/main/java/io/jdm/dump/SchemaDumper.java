package io.jdm.dump;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NO_SUCH_TABLE;

import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpListener;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes the schema files (CREATE DATABASE, CREATE TABLE, CREATE VIEW as SHOW CREATE returns them,
 * each view with Dumpling's placeholder table)
 * and reads each table's columns, keys and row estimate into a {@link TableJob}, one table at a
 * time as the dump reaches it, so the first table's chunks are read while the next one is planned.
 */
final class SchemaDumper {
    private final DumpConfig config;
    private final OutputDirectory dir;
    private final DumpMetrics metrics;
    private final DumpListener listener;
    private SchemaFingerprint fingerprint;
    private Map<TableName, Long> estimates = Map.of();
    /**
     * The columns and keys of tables read with their whole schema ({@link SchemaReader#readTogether}),
     * until each is dumped: two statements a table, one after another before its chunks go out, held
     * the workers back (1,000 tables of 1,000 rows: about 2 of a dump's 2.6 s).
     */
    private final Map<TableName, TableSchema> read = new HashMap<>();

    /** @param listener told of each database and table schema file once it is written */
    SchemaDumper(DumpConfig config, OutputDirectory dir, DumpMetrics metrics, DumpListener listener) {
        this.config = config;
        this.dir = dir;
        this.metrics = metrics;
        this.listener = listener;
    }

    /**
     * Writes the CREATE DATABASE files and counts every table's row estimate into the metrics; then
     * {@link #table} reads each table as the dump reaches it and {@link #views} writes the views.
     * The row estimates are read on a connection of {@code pool} meanwhile: for them MariaDB and
     * MySQL 5.7 open every table (about 0.1 ms each), while this connection reads the columns and keys.
     *
     * @param pool the snapshot's connections, not lent to any worker yet
     * @param fingerprint the columns seen under the lock, or null where no lock was taken
     */
    void start(Connection meta, SnapshotPool pool, List<TableName> tables, List<TableName> views,
               SchemaFingerprint fingerprint) throws SQLException, IOException, InterruptedException {
        this.fingerprint = fingerprint;
        Set<String> schemas = new LinkedHashSet<>();
        tables.forEach(t -> schemas.add(t.schema()));
        views.forEach(v -> schemas.add(v.schema()));
        SideRead<Map<TableName, Long>> counted = new SideRead<>(config.task(), "estimates",
                () -> estimates(pool, schemas));
        try {
            for (String db : schemas) {
                listener.schemaWritten(dir.writeSchema(DumpFileNames.databaseSchema(db),
                        showCreate(meta, "DATABASE", Identifiers.quote(db), null)));
            }
            read.putAll(SchemaReader.readTogether(meta, tables));
        } catch (SQLException | IOException | RuntimeException e) {
            counted.awaitQuietly(); // its connection back in the pool before the pool closes
            throw e;
        }
        estimates = counted.get();
        if (estimates == null) {
            estimates = estimates(meta, schemas);
        }
        for (TableName t : tables) {
            metrics.tableAdded(estimates.getOrDefault(t, 0L));
        }
    }

    static final String FOREIGN_KEY_CHECKS_OFF = "/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n";

    /** Reads one table's columns and keys, checks them against the fingerprint and writes its CREATE TABLE. */
    TableJob table(Connection meta, TableName t) throws SQLException, IOException {
        TableSchema schema;
        String create;
        try {
            schema = read.remove(t);
            if (schema == null) {
                schema = SchemaReader.read(meta, t);
            }
            create = showCreate(meta, "TABLE", t.quoted(), t);
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTable(e)) {
                throw new FatalException("task " + config.task() + " dump: table " + t.quoted()
                        + " was dropped during the dump; rerun the dump", e);
            }
            throw e;
        }
        if (fingerprint != null && !fingerprint.matches(schema)) {
            throw new FatalException("task " + config.task() + " dump: table " + t.quoted()
                    + " was altered during the dump (its columns changed after the snapshot); rerun the dump");
        }
        // as mydumper writes it: a table whose foreign key names a table created later can be created
        // first, by any loader, in any order
        listener.schemaWritten(dir.writeSchema(DumpFileNames.tableSchema(t.schema(), t.table()),
                FOREIGN_KEY_CHECKS_OFF + create));
        return new TableJob(schema, estimates.getOrDefault(t, 0L));
    }

    /**
     * Writes each view as Dumpling and mydumper do: {@code db.v-schema.sql} holds a placeholder
     * table with the view's columns, so a loader may create schemas in any order, and {@code
     * db.v-schema-view.sql} drops the placeholder and creates the view under the character set it
     * was defined with.
     */
    void views(Connection meta, List<TableName> views) throws SQLException, IOException {
        for (TableName v : views) {
            // From inside the view's database the server leaves same-database names unqualified, so
            // the view can be created under another database name (routes).
            try (Statement st = meta.createStatement()) {
                st.execute("USE " + Identifiers.quote(v.schema()));
            }
            String[] create = showCreateView(meta, v);
            dir.writeSchema(DumpFileNames.tableSchema(v.schema(), v.table()), placeholder(meta, v));
            String q = Identifiers.quote(v.table());
            dir.writeSchema(DumpFileNames.viewSchema(v.schema(), v.table()), "DROP TABLE IF EXISTS " + q + ";\n"
                    + "DROP VIEW IF EXISTS " + q + ";\n"
                    + "SET @PREV_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT;\n"
                    + "SET @PREV_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS;\n"
                    + "SET @PREV_COLLATION_CONNECTION=@@COLLATION_CONNECTION;\n"
                    + "SET character_set_client = " + create[1] + ";\n"
                    + "SET character_set_results = " + create[1] + ";\n"
                    + "SET collation_connection = " + create[2] + ";\n"
                    + create[0] + ";\n"
                    + "SET character_set_client = @PREV_CHARACTER_SET_CLIENT;\n"
                    + "SET character_set_results = @PREV_CHARACTER_SET_RESULTS;\n"
                    + "SET collation_connection = @PREV_COLLATION_CONNECTION");
        }
    }

    /** Dumpling's placeholder: the view's column names, each {@code int}. */
    private static String placeholder(Connection c, TableName v) throws SQLException {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(Identifiers.quote(v.table())).append("(\n");
        int n = 0;
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME FROM information_schema.COLUMNS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, v.schema());
            ps.setString(2, v.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sb.append(n++ == 0 ? "" : ",\n").append(Identifiers.quote(rs.getString(1))).append(" int");
                }
            }
        }
        return sb.append("\n)ENGINE=MyISAM").toString();
    }

    /** SHOW CREATE VIEW: the statement, character_set_client and collation_connection. */
    private static String[] showCreateView(Connection c, TableName v) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW CREATE VIEW " + v.quoted())) {
            if (!rs.next()) {
                throw new SQLException("SHOW CREATE VIEW " + v.quoted() + " returned nothing", "42S02",
                        ER_NO_SUCH_TABLE);
            }
            return new String[] {rs.getString(2), rs.getString(3), rs.getString(4)};
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTable(e)) {
                throw e;
            }
            throw new SQLException("SHOW CREATE VIEW " + v.quoted() + ": " + ErrorClassifier.oneLine(e),
                    e.getSQLState(), e.getErrorCode(), e);
        }
    }

    private String showCreate(Connection c, String kind, String quoted, TableName table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW CREATE " + kind + " " + quoted)) {
            if (!rs.next()) {
                throw new SQLException("SHOW CREATE " + kind + " " + quoted + " returned nothing", "42S02",
                        ER_NO_SUCH_TABLE);
            }
            return rs.getString(2);
        } catch (SQLException e) {
            if (table == null || ErrorClassifier.isNoSuchTable(e)) {
                throw e;
            }
            throw new SQLException("SHOW CREATE " + kind + " " + quoted + ": " + ErrorClassifier.oneLine(e),
                    e.getSQLState(), e.getErrorCode(), e);
        }
    }

    /**
     * {@link #estimates(Connection, Set)} on a connection of the pool; null when none is left or it
     * failed (the connection is then dropped, and the estimates are read on the dump's own connection,
     * so that a lost snapshot is reported where a chunk needs it, naming the table).
     */
    private static Map<TableName, Long> estimates(SnapshotPool pool, Set<String> schemas) throws InterruptedException {
        Connection c = pool.take(() -> false);
        if (c == null) {
            return null;
        }
        try {
            Map<TableName, Long> out = estimates(c, schemas);
            pool.give(c);
            return out;
        } catch (SQLException | RuntimeException e) {
            try {
                pool.discard(c);
            } catch (SQLException ignored) {
                // one connection fewer; the chunks find out whether any is left
            }
            return null;
        }
    }

    /** information_schema's row estimates (InnoDB's statistics) of the dumped schemas: they size chunks only. */
    private static Map<TableName, Long> estimates(Connection c, Set<String> schemas) throws SQLException {
        Map<TableName, Long> out = new HashMap<>();
        if (schemas.isEmpty()) {
            return out;
        }
        StringBuilder in = new StringBuilder();
        for (String db : schemas) {
            in.append(in.length() == 0 ? "" : ", ").append(Identifiers.literal(db));
        }
        // restricted to the dumped schemas: the server opens every table it reports on
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_ROWS FROM information_schema.TABLES "
                        + "WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA IN (" + in + ")")) {
            while (rs.next()) {
                out.put(new TableName(rs.getString(1), rs.getString(2)), rs.getLong(3));
            }
        }
        return out;
    }
}
