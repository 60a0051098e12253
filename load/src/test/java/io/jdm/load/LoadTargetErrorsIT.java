package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.InjectedErrors;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TiDB's errors raised over the wire by triggers on the target's {@code sbtest1}
 * ({@link InjectedErrors}) while a load runs: write conflicts are retried and counted by code,
 * transactions too large are committed as smaller ones, and a statement too large for any
 * transaction stops the load with one line. Every finished load is compared row by row.
 */
class LoadTargetErrorsIT {
    private static final String DB = "LoadTargetErrorsIT_src";
    private static final String[] TABLES = {"types", TestData.ODD_TABLE, "sbtest1"};
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path tmp;
    private static Path dump;

    @BeforeAll
    static void fixture() throws Exception {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        TestData.create(source, DB, 6000);
        dump = tmp.resolve("dump");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, DB, dump, 25, 3000, t -> "");
        }
    }

    /** The target database with sbtest1 created ahead of the load, its triggers installed. */
    private static InjectedErrors prepare(String task, String targetDb) throws SQLException {
        target.freshDatabase(targetDb);
        target.execute("CREATE DATABASE IF NOT EXISTS jdm_meta", "DROP TABLE IF EXISTS jdm_meta." + task
                + "_loader_checkpoint");
        try (Connection c = source.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW CREATE TABLE `" + DB + "`.sbtest1")) {
            rs.next();
            target.execute("USE `" + targetDb + "`", rs.getString(2));
        }
        InjectedErrors errors = InjectedErrors.install(target, targetDb, "sbtest1");
        LoadConfig cfg = config(task, targetDb);
        try (Connection c = target.connect()) {
            new LoadJob(cfg, new LoadMetrics(task, "src1")).checkpoint.ensureTable(c);
        }
        return errors;
    }

    private static LoadConfig config(String task, String targetDb) {
        return LoadConfig.of(task, "src1", ConnectionSpec.of(target.host(), target.port(), target.user(),
                        target.password()), dump).withPoolSize(2).withRetry(20, 1)
                .withRouter(t -> new TableName(targetDb, t.table()));
    }

    @Test
    void writeConflictsAreRetriedAndTheLoadMatches() throws Exception {
        InjectedErrors errors = prepare("inject_conflict", "LoadTargetErrorsIT_conflict");
        errors.failEvery(700, 5, 9007, "Write conflict, txnStartTS=1, conflictStartTS=2 [try again later]");
        LoadUnit unit = new LoadUnit(config("inject_conflict", "LoadTargetErrorsIT_conflict"));
        LoadResult r = unit.run();
        assertTrue(r.completed());
        assertEquals(5, errors.fired());
        assertEquals(5, unit.metrics().retries().count("9007"), unit.metrics().retries().byReason().toString());
        assertEquals(5, unit.metrics().retries().total());
        assertSameAsSource("LoadTargetErrorsIT_conflict");
    }

    @Test
    void transactionsTooLargeAreCommittedSmallerAndTheLoadMatches() throws Exception {
        InjectedErrors errors = prepare("inject_txn", "LoadTargetErrorsIT_txn");
        errors.failTransactionsOver(200, "`jdm_meta`.`inject_txn_loader_checkpoint`", 8004,
                "Transaction is too large, size: 104857600");
        LoadUnit unit = new LoadUnit(config("inject_txn", "LoadTargetErrorsIT_txn"));
        LoadResult r = unit.run();
        assertTrue(r.completed());
        assertTrue(errors.fired() > 0, "the target never refused a transaction");
        assertEquals(0, unit.metrics().retries().total(), "committing smaller is not a retry");
        assertSameAsSource("LoadTargetErrorsIT_txn");
    }

    @Test
    void aStatementTooLargeForOneTransactionStopsWithOneLine() throws Exception {
        InjectedErrors errors = prepare("inject_stmt", "LoadTargetErrorsIT_stmt");
        errors.failTransactionsOver(10, "`jdm_meta`.`inject_stmt_loader_checkpoint`", 8004,
                "Transaction is too large, size: 104857600");
        LoadUnit unit = new LoadUnit(config("inject_stmt", "LoadTargetErrorsIT_stmt"));
        JdmException e = assertThrows(JdmException.class, unit::run);
        String msg = e.getMessage();
        assertFalse(msg.contains("\n"), msg);
        assertTrue(msg.contains("sbtest1") && msg.contains("txn-total-size-limit") && msg.contains("byte offset"), msg);
        assertEquals(0, unit.metrics().retries().total());
    }

    private static void assertSameAsSource(String targetDb) throws SQLException {
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : TABLES) {
                TestData.assertSameRows(s, new TableName(DB, table), t, new TableName(targetDb, table));
            }
        }
    }
}
