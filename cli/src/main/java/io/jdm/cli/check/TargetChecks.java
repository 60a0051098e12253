package io.jdm.cli.check;

import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

    private static CheckResult charsets(ServerFacts f, String inst, PrecheckInput in) throws SQLException {
        Set<String> known = new HashSet<>();
        try (Statement st = f.connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT COLLATION_NAME FROM information_schema.COLLATIONS")) {
            while (rs.next()) {
                known.add(rs.getString(1).toLowerCase());
            }
        }
        List<String> missing = new ArrayList<>();
        for (PrecheckInput.Source s : in.sources()) {
            try (Connection c = DataSources.connect(s.spec())) {
                ServerFacts sf = ServerFacts.read(c);
                for (String coll : TableChecks.collations(sf, s)) {
                    if (!known.contains(coll.toLowerCase()) && !missing.contains(coll)) {
                        missing.add(coll);
                    }
                }
            } catch (SQLException e) {
                // The source's own connection check already reported this.
            }
        }
        if (missing.isEmpty()) {
            return CheckResult.pass("charset", inst, "the target knows every collation the selected tables use");
        }
        return CheckResult.warn("charset", inst, "the target lacks collation(s) " + TableChecks.shown(missing)
                + ": create those tables with a supported collation or route them elsewhere");
    }
}
