package io.jdm.cli.check;

import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Checks on the target server. */
final class TargetChecks {
    private static final List<String> TARGET_PRIVILEGES =
            List.of("SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "INDEX");

    private TargetChecks() {
    }

    static List<CheckResult> run(ServerFacts f, String inst, PrecheckInput in) throws SQLException {
        List<CheckResult> out = new ArrayList<>();
        out.add(SourceChecks.version(f, inst));
        out.add(privileges(f, inst, in.metaSchema()));
        out.add(charsets(f, inst, in));
        out.add(SourceChecks.connections(f, inst,
                in.sources().stream().mapToInt(PrecheckInput.Source::targetConnections).sum(),
                "loaders.pool-size or syncers.worker-count"));
        out.add(localInfile(f, inst));
        if (f.flavor == Flavor.MARIADB) {
            CheckResult attrs = MySqlAttributeChecks.run(f, inst, in);
            if (attrs != null) {
                out.add(attrs);
            }
        }
        if (f.flavor == Flavor.TIDB) {
            out.addAll(TidbChecks.run(f, inst, in));
        }
        return out;
    }

    /** The load's fast path: files not begun go in as LOAD DATA LOCAL where the target allows it. */
    static CheckResult localInfile(ServerFacts f, String inst) {
        if (f.flavor == Flavor.TIDB) {
            return CheckResult.pass("local_infile", inst, "a TiDB target: the load sends INSERT statements"
                    + " (TiDB's LOAD DATA may commit part of a file on its own)");
        }
        String v = f.var("local_infile");
        if (v.equalsIgnoreCase("ON") || v.equals("1")) {
            return CheckResult.pass("local_infile", inst, "local_infile is ON: the load sends the rows of files"
                    + " not begun as LOAD DATA LOCAL");
        }
        return CheckResult.warn("local_infile", inst, "local_infile is " + (v.isEmpty() ? "unknown" : v)
                + ": the load sends INSERT statements, which takes longer; SET GLOBAL local_infile = 1 on the target"
                + " lets it send the rows as LOAD DATA LOCAL");
    }

    private static CheckResult privileges(ServerFacts f, String inst, String metaSchema) {
        List<String> missing = new ArrayList<>();
        for (String p : TARGET_PRIVILEGES) {
            if (!f.hasGlobal(p)) {
                missing.add(p);
            }
        }
        if (missing.isEmpty()) {
            return CheckResult.pass("target_privilege", inst, String.join(", ", TARGET_PRIVILEGES) + " granted");
        }
        return CheckResult.fail("target_privilege", inst, "missing " + String.join(", ", missing)
                + ": GRANT " + String.join(", ", missing) + " ON *.* TO the task's target user (the checkpoints in `"
                + metaSchema + "` need them too)");
    }

    /**
     * Every collation the selected tables use, asked of the target itself rather than looked up in
     * its list: a server accepts names its list lacks (MariaDB takes MySQL's {@code utf8_general_ci}
     * and {@code utf8mb4_0900_*} as aliases). Accepted is not enough: the same name can compare
     * differently ({@code utf8mb4_0900_bin} is NO PAD on MySQL and PAD SPACE on MariaDB 11.4), and
     * then {@code 'a'} and {@code 'a '} are one key on the target and two on the source: a unique key
     * refuses rows, safe mode's REPLACE deletes a distinct row. Both servers are asked whether
     * {@code 'a' = 'a '} under the collation.
     */
    private static CheckResult charsets(ServerFacts f, String inst, PrecheckInput in) throws SQLException {
        List<String> missing = new ArrayList<>();
        List<String> padding = new ArrayList<>();
        for (PrecheckInput.Source s : in.sources()) {
            try (Connection c = DataSources.connect(s.spec())) {
                ServerFacts sf = ServerFacts.read(c);
                for (String coll : TableChecks.collations(sf, s)) {
                    String cs = charsetOf(c, coll);
                    Boolean onSource = padsSpace(c, cs, coll);
                    Boolean onTarget = padsSpace(f.connection, cs, coll);
                    if (onTarget == null) {
                        add(missing, coll);
                    } else if (onSource != null && !onSource.equals(onTarget)) {
                        add(padding, coll + " (" + pad(onSource) + " on the source, " + pad(onTarget) + " on the target)");
                    }
                }
            } catch (SQLException e) {
                // The source's own connection check already reported this.
            }
        }
        if (!padding.isEmpty()) {
            return CheckResult.fail("charset", inst, "collation(s) " + TableChecks.shown(padding) + " compare trailing "
                    + "spaces differently on the target, so keys equal on one side are distinct on the other: create "
                    + "those tables on the target with a collation of the source's padding (a _nopad_ one on MariaDB) "
                    + "before the task, or change them on the source");
        }
        if (missing.isEmpty()) {
            return CheckResult.pass("charset", inst, "the target knows every collation the selected tables use, "
                    + "with the same trailing-space comparison");
        }
        return CheckResult.warn("charset", inst, "the target lacks collation(s) " + TableChecks.shown(missing)
                + ": create those tables with a supported collation or route them elsewhere");
    }

    private static void add(List<String> list, String item) {
        if (!list.contains(item)) {
            list.add(item);
        }
    }

    private static String pad(boolean padsSpace) {
        return padsSpace ? "PAD SPACE" : "NO PAD";
    }

    private static String charsetOf(Connection c, String collation) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT CHARACTER_SET_NAME FROM information_schema.COLLATIONS WHERE COLLATION_NAME = ?")) {
            ps.setString(1, collation);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : collation.substring(0, Math.max(0, collation.indexOf('_')));
            }
        }
    }

    /** Whether {@code 'a' = 'a '} under the collation on that server; null when it does not take the name. */
    private static Boolean padsSpace(Connection c, String charset, String collation) {
        if (!charset.matches("[a-z0-9]+") || !collation.matches("[A-Za-z0-9_]+")) {
            return null;
        }
        String sql = "SELECT CONVERT('a' USING " + charset + ") COLLATE " + collation + " = CONVERT('a ' USING "
                + charset + ") COLLATE " + collation;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1) == 1;
        } catch (SQLException e) {
            return null;
        }
    }
}
