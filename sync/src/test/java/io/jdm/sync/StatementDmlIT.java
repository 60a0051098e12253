package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.Action;
import io.jdm.common.error.JdmException;
import io.jdm.common.position.BinlogPosition;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.reader.EventDecider;
import io.jdm.sync.ring.StoppedStatement;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A session that sets binlog_format=STATEMENT (or MIXED) on a ROW source logs its row changes as
 * QUERY events, which sync cannot replay: the unit stops at the first one with one line naming the
 * position and the format, every change before it applied and the checkpoint before it, so a
 * restart stops there again; a filter rule with action Ignore matching the statement passes it.
 */
class StatementDmlIT {
    private static SyncConfig config(SqlServer src, SqlServer tgt, String db, BinlogPosition start, EventDecider f) {
        return SyncConfig.builder("stmtdml", spec(src), spec(tgt)).workerCount(2).serverId(7106)
                .metaSchema("jdm_meta_stmt").start(start).eventFilter(f).tableFilter((d, t) -> d.equals(db)).build();
    }

    @Test
    void aRowChangeLoggedAsAStatementStopsTheTaskBeforeIt() throws Exception {
        String db = "stmtdmlit";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_stmt");
        String ddl = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))";
        src.execute(ddl);
        tgt.execute(ddl);
        BinlogPosition start = sourcePosition(src);
        SyncUnit first = new SyncUnit(config(src, tgt, db, start, EventDecider.ALWAYS_DO));
        first.start();
        BinlogPosition before;
        try (Connection c = src.connect(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO `" + db + "`.t VALUES (1, 'rows')");
            before = sourcePosition(src);
            st.execute("SET SESSION binlog_format = STATEMENT");
            st.execute("INSERT INTO `" + db + "`.t VALUES (2, 'statement')");
            st.execute("SET SESSION binlog_format = ROW");
            st.execute("INSERT INTO `" + db + "`.t VALUES (3, 'rows again')");
        }
        JdmException failure = first.failed().get(60, TimeUnit.SECONDS);
        first.stop();
        String msg = failure.getMessage();
        assertTrue(msg.startsWith("sync: the INSERT at " + before.file() + ":" + before.pos() + " ")
                && msg.contains(" was logged as a statement, not as row events (its session ran with binlog_format "
                + "STATEMENT or MIXED)") && !msg.contains("\n"), msg);
        assertEquals(List.of("1:rows"), rows(tgt, db), "what came before the statement, and nothing after it");
        // the status shows the statement at its QUERY event, where a binlog skip takes it
        StoppedStatement at = first.stoppedAt();
        assertEquals("INSERT INTO `" + db + "`.t VALUES (2, 'statement')", at.statement(), at.toString());
        BinlogPosition query = BinlogPosition.of(at.binlogPos().substring(0, at.binlogPos().lastIndexOf(':')),
                Long.parseLong(at.binlogPos().substring(at.binlogPos().lastIndexOf(':') + 1)));
        assertTrue(query.file().equals(before.file()) && query.pos() > before.pos() && !at.retrying()
                && at.error().equals(msg) && at.errorCode() == 0, at.toString());
        assertTrue(msg.contains("--binlog-pos " + at.binlogPos() + ")"), msg);
        BinlogPosition checkpoint = first.checkpoint();
        assertTrue(checkpoint.file().equals(before.file()) && checkpoint.pos() <= before.pos(),
                () -> "checkpoint " + checkpoint + " must be at or before " + before);

        SyncUnit again = new SyncUnit(config(src, tgt, db, start, EventDecider.ALWAYS_DO));
        again.start();
        try {
            assertTrue(again.failed().get(60, TimeUnit.SECONDS).getMessage().contains("was logged as a statement"));
        } finally {
            again.stop();
        }

        EventDecider ignore = (d, t, type, sql) -> sql != null && sql.contains("'statement'") ? Action.IGNORE
                : Action.DO;
        SyncUnit skipping = new SyncUnit(config(src, tgt, db, start, ignore));
        skipping.start();
        try {
            assertTrue(skipping.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + skipping.failure());
            assertEquals(List.of("1:rows", "3:rows again"), rows(tgt, db));
        } finally {
            skipping.stop();
        }
    }

    private static List<String> rows(SqlServer s, String db) throws Exception {
        return XaIT.hexRows(s, db).stream().map(r -> {
            String[] p = r.split(":", 2);
            return p[0] + ":" + new String(java.util.HexFormat.of().parseHex(p[1]), java.nio.charset.StandardCharsets.UTF_8);
        }).toList();
    }
}
