package io.jdm.bench;

import io.jdm.bench.workload.Sbtest;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * CHECKSUM TABLE of sbtest1..N on both sides: a run whose copy differs is an error, not a result.
 * The checksum covers every row and column and does not depend on the database name.
 */
final class Checksums {
    private Checksums() {
    }

    static void assertSame(ConnectionSpec source, String sourceDb, ConnectionSpec target, String targetDb,
                           int tables, String who) throws SQLException {
        try (Connection s = DataSources.connect(source); Connection t = DataSources.connect(target)) {
            for (int i = 1; i <= tables; i++) {
                String table = Sbtest.tableName(i);
                long a = checksum(s, new TableName(sourceDb, table));
                long b = checksum(t, new TableName(targetDb, table));
                if (a != b) {
                    throw new IllegalStateException(who + ": " + targetDb + "." + table + " on the target differs "
                            + "from " + sourceDb + "." + table + " on the source (CHECKSUM TABLE " + b + " vs " + a
                            + "); the measurement is discarded");
                }
            }
        }
    }

    private static long checksum(Connection c, TableName t) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("CHECKSUM TABLE " + t.quoted())) {
            if (!rs.next() || rs.getObject(2) == null) {
                throw new IllegalStateException(t + " does not exist on " + c.getMetaData().getURL());
            }
            return rs.getLong(2);
        }
    }
}
