package io.jdm.sync.writer;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.jdbc.TidbSession;
import io.jdm.common.sql.SqlModes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A writer's own connection to the target: multi-statement batches (one round trip per batch,
 * its COMMIT included),
 * autocommit off, and the session that makes replayed values land exactly: the sql_mode the unit
 * chose (the spec's session carries it: the source's made fit for replay, see {@code
 * WriterSqlMode}; else {@link SqlModes#REPLAY}), no foreign-key checks (rows of related tables are
 * applied by different writers). On TiDB also DM's session (see {@link TidbSession}).
 */
final class TargetSession {
    private TargetSession() {
    }

    static Connection open(ConnectionSpec spec) throws SQLException {
        Properties p = new Properties();
        p.setProperty("allowMultiQueries", "true");
        p.setProperty("socketTimeout", "600000");
        Connection c = DataSources.connect(spec, p);
        try {
            Map<String, String> own = new LinkedHashMap<>();
            own.put("sql_mode", SqlModes.REPLAY);
            own.put("foreign_key_checks", "0");
            own.putAll(TidbSession.defaults(c, spec.session()));
            // the task's own session variables (set by connect) win over these
            own.keySet().removeIf(k -> spec.session().keySet().stream().anyMatch(k::equalsIgnoreCase));
            DataSources.setSession(c, own);
            c.setAutoCommit(false);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Runs a multi-statement string, reading every result so a failing statement surfaces here. */
    static void executeAll(Statement st, String sql) throws SQLException {
        boolean isResult = st.execute(sql);
        while (isResult || st.getUpdateCount() != -1) {
            isResult = st.getMoreResults();
        }
    }
}
