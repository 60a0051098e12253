package io.jdm.bench;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;

/**
 * The peer for sync: MariaDB's own replication into the target, {@code slave_parallel_threads} =
 * the worker count in optimistic mode, from the same file/position jdm starts at. Caught up when
 * the SQL thread's {@code Relay_Master_Log_File:Exec_Master_Log_Pos} reaches the source position
 * and, when the source has GTIDs, {@code @@gtid_slave_pos} (updated as each transaction commits,
 * set to the start's GTIDs) covers the source's GTID there: applied and committed, not only read.
 */
final class NativeReplication implements Replicator {
    private final ConnectionSpec source;
    private final ConnectionSpec target;
    private final int threads;

    NativeReplication(ConnectionSpec source, ConnectionSpec target, int threads) {
        this.source = source;
        this.target = target;
        this.threads = threads;
    }

    /** Null when the target can be a MariaDB replica, else why not. */
    static String unsupportedReason(ConnectionSpec target) {
        try (Connection c = DataSources.connect(target); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            rs.next();
            return rs.getString(1).toLowerCase().contains("mariadb") ? null
                    : "the target is not MariaDB (" + rs.getString(1) + ")";
        } catch (SQLException e) {
            return "cannot ask the target its version: " + e.getMessage();
        }
    }

    @Override
    public void start(BinlogPosition from) throws SQLException {
        reset();
        // from P's GTIDs, so a domain the workload never writes to counts as reached
        exec("SET GLOBAL gtid_slave_pos = " + Identifiers.literal(slavePos(from.gtidSet())),
                "SET GLOBAL slave_parallel_threads = " + threads,
                "SET GLOBAL slave_parallel_mode = 'optimistic'",
                "CHANGE MASTER TO MASTER_HOST = " + Identifiers.literal(source.host()) + ", MASTER_PORT = "
                        + source.port() + ", MASTER_USER = " + Identifiers.literal(source.user())
                        + ", MASTER_PASSWORD = " + Identifiers.literal(source.password()) + ", MASTER_LOG_FILE = "
                        + Identifiers.literal(from.file()) + ", MASTER_LOG_POS = " + from.pos()
                        + ", MASTER_USE_GTID = no, MASTER_SSL = 0",
                "START SLAVE");
    }

    @Override
    public boolean caughtUp(BinlogPosition end, long waitMillis) throws Exception {
        long deadline = System.currentTimeMillis() + waitMillis;
        do {
            try (Connection c = DataSources.connect(target); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                if (!rs.next()) {
                    throw new IllegalStateException("native replication: the target has no replica configured");
                }
                String err = rs.getString("Last_SQL_Error");
                String ioErr = rs.getString("Last_IO_Error");
                if ((err != null && !err.isEmpty()) || (ioErr != null && !ioErr.isEmpty())) {
                    throw new IllegalStateException("native replication stopped: " + (err == null || err.isEmpty()
                            ? ioErr : err));
                }
                BinlogPosition at = BinlogPosition.of(rs.getString("Relay_Master_Log_File"),
                        rs.getLong("Exec_Master_Log_Pos"));
                if (at.compareTo(BinlogPosition.of(end.file(), end.pos())) >= 0 && committed(st, end.gtidSet())) {
                    return true;
                }
            }
            Thread.sleep(20);
        } while (System.currentTimeMillis() < deadline);
        return false;
    }

    /** True when the replica's committed GTIDs reach every domain's sequence number in {@code gtids}. */
    private static boolean committed(Statement st, String gtids) throws SQLException {
        if (gtids.isEmpty()) {
            return true;
        }
        Map<Long, long[]> have;
        try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL.gtid_slave_pos")) {
            rs.next();
            have = lastPerDomain(rs.getString(1));
        }
        for (Map.Entry<Long, long[]> e : lastPerDomain(gtids).entrySet()) {
            if (have.getOrDefault(e.getKey(), new long[] {0, -1})[1] < e.getValue()[1]) {
                return false;
            }
        }
        return true;
    }

    /**
     * domain → {server id, sequence} of the highest sequence per domain: gtid_binlog_pos may list one
     * GTID per server id in a domain, while gtid_slave_pos takes one per domain.
     */
    static Map<Long, long[]> lastPerDomain(String gtids) {
        Map<Long, long[]> out = new TreeMap<>();
        for (String g : gtids == null ? new String[0] : gtids.split(",")) {
            String[] p = g.trim().split("-");
            if (p.length == 3) {
                long[] v = {Long.parseLong(p[1]), Long.parseLong(p[2])};
                out.merge(Long.parseLong(p[0]), v, (a, b) -> a[1] >= b[1] ? a : b);
            }
        }
        return out;
    }

    private static String slavePos(String gtids) {
        StringBuilder sb = new StringBuilder();
        lastPerDomain(gtids).forEach((d, v) -> sb.append(sb.length() == 0 ? "" : ",").append(d).append('-')
                .append(v[0]).append('-').append(v[1]));
        return sb.toString();
    }

    @Override
    public Map<String, Double> extra(double seconds) {
        return Map.of();
    }

    @Override
    public void close() throws SQLException {
        reset();
        exec("SET GLOBAL slave_parallel_threads = 0");
    }

    /** STOP/RESET fail when no replica is configured, which is the state they aim for. */
    private void reset() throws SQLException {
        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
            for (String s : new String[] {"STOP SLAVE", "RESET SLAVE ALL"}) {
                try {
                    st.execute(s);
                } catch (SQLException e) {
                    if (e.getErrorCode() != 1617 && e.getErrorCode() != 1200) {
                        throw e;
                    }
                }
            }
        }
    }

    private void exec(String... sql) throws SQLException {
        Tools.execute(target, sql);
    }
}
