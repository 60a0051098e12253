package io.jdm.cli.check;

import io.jdm.common.jdbc.DataSources;
import io.jdm.common.jdbc.TidbSession;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * When the target is TiDB: what the selected source tables use that TiDB lacks or treats
 * differently. Collations the target does not know are the charset check's business.
 */
final class TidbChecks {
    /** Spatial types as information_schema.COLUMNS.DATA_TYPE names them on MySQL and MariaDB. */
    private static final String SPATIAL = "'geometry', 'point', 'linestring', 'polygon', 'multipoint', "
            + "'multilinestring', 'multipolygon', 'geometrycollection', 'geomcollection'";

    private TidbChecks() {
    }

    /**
     * What the selected tables of the sources use, as {@code db.table} names.
     *
     * @param gipk tables with MySQL's generated invisible primary key ({@code my_row_id})
     */
    record SourceTables(List<String> foreignKeys, List<String> spatial, List<String> gipk) {
    }

    static List<CheckResult> run(ServerFacts target, String inst, PrecheckInput in) {
        SourceTables all = new SourceTables(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (PrecheckInput.Source s : in.sources()) {
            try (Connection c = DataSources.connect(s.spec())) {
                read(c, s, all);
            } catch (SQLException e) {
                // The source's own connection check already reported this.
            }
        }
        return judge(target.version, inst, all);
    }

    static List<CheckResult> judge(String tidbVersion, String inst, SourceTables t) {
        List<CheckResult> out = new ArrayList<>();
        int[] v = TidbSession.tidbVersion(tidbVersion);
        boolean fkEnforced = v[0] > 6 || (v[0] == 6 && v[1] >= 6);
        if (t.foreignKeys().isEmpty()) {
            out.add(CheckResult.pass("tidb_foreign_key", inst, "no selected table has a foreign key"));
        } else if (!fkEnforced) {
            out.add(CheckResult.warn("tidb_foreign_key", inst, "TiDB before v6.6 keeps foreign keys but does not "
                    + "enforce them (" + TableChecks.shown(t.foreignKeys()) + "): the data replicates, but the "
                    + "target will not refuse rows that break them; upgrade TiDB to v6.6+ if they must hold there"));
        } else {
            out.add(CheckResult.pass("tidb_foreign_key", inst, "TiDB " + v[0] + "." + v[1] + " enforces foreign keys "
                    + "(tidb_enable_foreign_key); jdm writes with foreign_key_checks=0 as the source's binlog order "
                    + "already satisfied them"));
        }
        if (t.spatial().isEmpty()) {
            out.add(CheckResult.pass("tidb_spatial", inst, "no selected table has a spatial column"));
        } else {
            out.add(CheckResult.warn("tidb_spatial", inst, "TiDB has no spatial types, so creating "
                    + TableChecks.shown(t.spatial()) + " on it fails: leave those tables out of the block-allow-list "
                    + "or change their columns (e.g. to WKB in VARBINARY) on the source"));
        }
        if (t.gipk().isEmpty()) {
            out.add(CheckResult.pass("tidb_gipk", inst, "no selected table has a generated invisible primary key"));
        } else {
            out.add(CheckResult.warn("tidb_gipk", inst, TableChecks.shown(t.gipk()) + " have MySQL's generated "
                    + "invisible primary key my_row_id: TiDB has no invisible columns, so my_row_id becomes an "
                    + "ordinary visible column there (SELECT * and INSERT without a column list see it); give those "
                    + "tables a primary key of their own on the source if that matters"));
        }
        return out;
    }

    private static void read(Connection c, PrecheckInput.Source s, SourceTables into) throws SQLException {
        try (Statement st = c.createStatement()) {
            collect(st, "SELECT DISTINCT CONSTRAINT_SCHEMA, TABLE_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS",
                    s, into.foreignKeys());
            collect(st, "SELECT DISTINCT TABLE_SCHEMA, TABLE_NAME FROM information_schema.COLUMNS WHERE DATA_TYPE IN ("
                    + SPATIAL + ")", s, into.spatial());
            collect(st, "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.COLUMNS WHERE COLUMN_NAME = "
                    + "'my_row_id' AND EXTRA LIKE '%INVISIBLE%' AND COLUMN_KEY = 'PRI'", s, into.gipk());
        }
    }

    private static void collect(Statement st, String sql, PrecheckInput.Source s, List<String> into)
            throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String name = "`" + rs.getString(1) + "`.`" + rs.getString(2) + "`";
                if (s.tableFilter().test(rs.getString(1), rs.getString(2)) && !into.contains(name)) {
                    into.add(name);
                }
            }
        }
    }
}
