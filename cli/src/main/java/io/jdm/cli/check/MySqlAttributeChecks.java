package io.jdm.cli.check;

import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A MySQL source into a MariaDB target: the attributes of the selected tables that only MySQL has.
 * The load spells invisible columns and indexes and SRIDs MariaDB's way ({@code
 * MySqlOnlyAttributes}); a functional index has no MariaDB form (the load would stop on it) and a
 * CHECK … NOT ENFORCED would be enforced there (rows the source holds refused), so those fail.
 */
final class MySqlAttributeChecks {
    static final String ITEM = "mysql_attributes";

    private MySqlAttributeChecks() {
    }

    /** The check's line, or null when no source is MySQL. */
    static CheckResult run(ServerFacts target, String inst, PrecheckInput in) {
        List<String> lost = new ArrayList<>();
        List<String> carried = new ArrayList<>();
        boolean anyMySql = false;
        for (PrecheckInput.Source s : in.sources()) {
            try (Connection c = DataSources.connect(s.spec())) {
                if (Flavor.detect(c) != Flavor.MYSQL) {
                    continue;
                }
                anyMySql = true;
                collect(c, s, "SELECT TABLE_SCHEMA, TABLE_NAME, CONCAT('functional index ', INDEX_NAME)"
                        + " FROM information_schema.STATISTICS WHERE EXPRESSION IS NOT NULL", lost);
                collect(c, s, "SELECT TABLE_SCHEMA, TABLE_NAME, CONCAT('CHECK ', CONSTRAINT_NAME, ' NOT ENFORCED')"
                        + " FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_TYPE = 'CHECK'"
                        + " AND ENFORCED = 'NO'", lost);
                collect(c, s, "SELECT TABLE_SCHEMA, TABLE_NAME, CONCAT('invisible index ', INDEX_NAME, ' as IGNORED')"
                        + " FROM information_schema.STATISTICS WHERE IS_VISIBLE = 'NO'", carried);
                collect(c, s, "SELECT TABLE_SCHEMA, TABLE_NAME, CONCAT('invisible column ', COLUMN_NAME)"
                        + " FROM information_schema.COLUMNS WHERE EXTRA LIKE '%INVISIBLE%'", carried);
                collect(c, s, "SELECT TABLE_SCHEMA, TABLE_NAME, CONCAT(COLUMN_NAME, ' SRID ', SRS_ID,"
                        + " ' as REF_SYSTEM_ID')"
                        + " FROM information_schema.ST_GEOMETRY_COLUMNS WHERE SRS_ID IS NOT NULL", carried);
            } catch (SQLException e) {
                // the source's own connection check already reported this
            }
        }
        if (!anyMySql) {
            return null;
        }
        if (!lost.isEmpty()) {
            return CheckResult.fail(ITEM, inst, "MariaDB has no form for " + TableChecks.shown(lost) + ": drop or"
                    + " change them on the source (a functional index: index a generated column instead; NOT ENFORCED:"
                    + " drop the constraint), or create those tables on the target yourself before the task");
        }
        if (!carried.isEmpty()) {
            return CheckResult.warn(ITEM, inst, "the load writes " + TableChecks.shown(carried) + " MariaDB's way"
                    + " (MariaDB records a column's SRID but takes values of another); a DDL during sync that writes"
                    + " them MySQL's way stops the sync (MariaDB refuses the statement)");
        }
        return CheckResult.pass(ITEM, inst, "the selected tables use no attribute only MySQL has");
    }

    /** Rows of (schema, table, what) for the selected tables; a server without those columns (5.7) has none. */
    private static void collect(Connection c, PrecheckInput.Source s, String sql, List<String> into) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                if (!TableChecks.isSystem(rs.getString(1)) && s.tableFilter().test(rs.getString(1), rs.getString(2))) {
                    String item = rs.getString(1) + "." + rs.getString(2) + " " + rs.getString(3);
                    if (!into.contains(item)) {
                        into.add(item);
                    }
                }
            }
        } catch (SQLException e) {
            // MySQL 5.7 has neither functional indexes, NOT ENFORCED, invisible indexes nor SRIDs
        }
    }
}
