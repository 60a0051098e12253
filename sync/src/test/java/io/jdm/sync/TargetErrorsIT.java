package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.rows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.JdmException;
import io.jdm.common.metrics.MetricFamilies;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.InjectedErrors;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * The errors TiDB answers writers with, raised over the wire by triggers on the target tables
 * ({@link InjectedErrors}): the retriable ones are ridden out and counted by code, a transaction
 * too large is committed in parts, an entry too large and an error no retry passes stop the unit
 * with one line. Every case ends comparing source and target row by row.
 */
class TargetErrorsIT {
    private static final List<String> TABLES = List.of("acc", "orders", "logs");
    private static final String META = "jdm_meta_inject";

    @Test
    void retriableTidbErrorsUnderAWorkloadAreRiddenOutAndCounted() throws Exception {
        String db = "targeterrorsit_retry";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncFaultIT.prepare(src, tgt, db, META, "injecttask");
        InjectedErrors errors = InjectedErrors.install(tgt, db, TABLES.toArray(String[]::new));
        SyncUnit unit = new SyncUnit(config(src, tgt, "injecttask", 4, 20, db, 7301));
        unit.start();
        try {
            try (Workload w = new Workload(src, db, 11).start()) {
                errors.failEvery(7, 4, 9007, "Write conflict, txnStartTS=1, conflictStartTS=2, conflictCommitTS=3,"
                        + " key={tableID=1, handle=1} [try again later]");
                awaitFired(errors, 4, unit);
                errors.failEvery(5, 3, 8028, "Information schema is changed during the execution of the statement");
                awaitFired(errors, 7, unit);
                errors.failEvery(5, 3, 1105, "Information schema is out of date: schema failed to update in 1 lease");
                awaitFired(errors, 10, unit);
            }
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            for (String t : TABLES) {
                assertSameRows(src, tgt, new TableName(db, t));
            }
            SyncMetrics m = unit.metrics();
            assertTrue(m.retries("9007") >= 4, "9007 retries: " + m.retries("9007"));
            assertTrue(m.retries("8028") >= 3, "8028 retries: " + m.retries("8028"));
            assertTrue(m.retries("1105") >= 3, "1105 retries: " + m.retries("1105"));
            long injected = m.retries("9007") + m.retries("8028") + m.retries("1105");
            assertEquals(errors.fired(), injected, "one retry per injected error");
            // Four writers on tables with a unique key may also meet a real InnoDB deadlock or lock
            // wait among themselves; those are retried too, and nothing else is.
            assertEquals(injected + m.retries("1213") + m.retries("1205"), m.retries(),
                    () -> "retries by code: " + m.retriesByCode());
            MetricFamilies families = new MetricFamilies();
            m.collect(families);
            String text = families.text();
            assertTrue(java.util.regex.Pattern.compile("(?m)^jdm_sync_retries_total\\{[^}]*code=\"9007\"[^}]*\\} "
                    + m.retries("9007") + "(\\.0)?$").matcher(text).find(), text);
        } finally {
            unit.stop();
        }
    }

    @Test
    void aTransactionTooLargeIsCommittedInPartsAndStaysExact() throws Exception {
        String db = "targeterrorsit_txn";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncFaultIT.prepare(src, tgt, db, META, "toolargetask");
        InjectedErrors errors = InjectedErrors.install(tgt, db, TABLES.toArray(String[]::new));
        SyncUnit unit = new SyncUnit(config(src, tgt, "toolargetask", 1, 64, db, 7302));
        unit.start();
        try {
            errors.failTransactionsOver(5, "`" + META + "`.`toolargetask_syncer_checkpoint`", 8004,
                    "Transaction is too large, size: 104857600");
            StringBuilder values = new StringBuilder();
            for (int i = 1; i <= 40; i++) {
                values.append(i == 1 ? "" : ",").append('(').append(i).append(',').append(i).append(",'v").append(i)
                        .append("',").append(i * 7).append(')');
            }
            src.execute("BEGIN", "INSERT INTO `" + db + "`.acc VALUES " + values,
                    "UPDATE `" + db + "`.acc SET v = CONCAT(v, 'u'), n = n + 1 WHERE id % 3 = 0",
                    "DELETE FROM `" + db + "`.acc WHERE id % 5 = 0",
                    "INSERT INTO `" + db + "`.logs VALUES (1, 'a'), (2, 'b'), (3, 'c')", "COMMIT");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            assertTrue(errors.fired() > 0, "the target never refused a transaction as too large");
            for (String t : TABLES) {
                assertSameRows(src, tgt, new TableName(db, t));
            }
            assertEquals(0, unit.metrics().retries(), "a split is not a retry");
        } finally {
            unit.stop();
        }
    }

    @Test
    void anEntryTooLargeStopsTheUnitNamingTableKeyAndLimit() throws Exception {
        String db = "targeterrorsit_entry";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncFaultIT.prepare(src, tgt, db, META, "entrytask");
        tgt.execute("CREATE TRIGGER `" + db + "`.acc_entry BEFORE INSERT ON `" + db + "`.acc FOR EACH ROW"
                + " IF LENGTH(NEW.v) > 20 THEN SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 8025,"
                + " MESSAGE_TEXT = 'entry too large, the max entry size is 6291456, the size of data is 7340032';"
                + " END IF");
        SyncUnit unit = new SyncUnit(config(src, tgt, "entrytask", 1, 64, db, 7303));
        unit.start();
        try {
            StringBuilder sql = new StringBuilder("INSERT INTO `" + db + "`.acc VALUES ");
            for (int i = 1; i <= 15; i++) {
                sql.append(i == 1 ? "" : ",").append('(').append(i).append(',').append(i).append(",'")
                        .append(i == 11 ? "x".repeat(40) : "v" + i).append("',").append(i).append(')');
            }
            src.execute(sql.toString());
            JdmException e = awaitFailure(unit);
            String msg = e.getMessage();
            assertFalse(msg.contains("\n"), msg);
            assertTrue(msg.contains("txn-entry-size-limit") && msg.contains("`" + db + "`.`acc`")
                    && msg.contains("id=11"), msg);
            assertEquals(10, rows(tgt, new TableName(db, "acc")).size(), "the changes before the refused one are in");
            assertEquals(0, unit.metrics().retries(), "nothing to retry");
        } finally {
            unit.stop();
        }
    }

    @Test
    void anErrorNoRetryPassesStopsAtOnceWithOneLine() throws Exception {
        String db = "targeterrorsit_fatal";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncFaultIT.prepare(src, tgt, db, META, "fataltask");
        InjectedErrors errors = InjectedErrors.install(tgt, db, TABLES.toArray(String[]::new));
        SyncUnit unit = new SyncUnit(config(src, tgt, "fataltask", 2, 20, db, 7304));
        unit.start();
        try {
            errors.failEvery(1, 1000, 1054, "Unknown column 'k' in 'field list'");
            src.execute("INSERT INTO `" + db + "`.logs VALUES (1, 'a')");
            JdmException e = awaitFailure(unit);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.getMessage().contains("Unknown column 'k'") && e.getMessage().contains("restart the task"),
                    e.getMessage());
            assertFalse(e.isRetriable(), e.getMessage());
            assertEquals(1, errors.fired(), "one attempt, no retry loop");
            assertEquals(0, unit.metrics().retries());
        } finally {
            unit.stop();
        }
    }

    /**
     * A DDL cannot fire a trigger; a lock held on the target table refuses it honestly instead: the
     * writers' lock_wait_timeout of 1 s turns the wait into 1205, which is retried until the lock
     * goes. The statement runs once, after the marker, and the table ends as on the source.
     */
    @Test
    void aDdlRefusedByALockWaitIsRetriedUntilTheLockGoes() throws Exception {
        String db = "targeterrorsit_ddl";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncFaultIT.prepare(src, tgt, db, META, "ddltask");
        SyncUnit unit = new SyncUnit(SyncConfig.builder("ddltask", spec(src),
                        spec(tgt).withSession(java.util.Map.of("lock_wait_timeout", "1")))
                .workerCount(2).batch(20).serverId(7305).metaSchema(META).start(sourcePosition(src))
                .safeModeDuration(Duration.ZERO)
                .retryBudget(Duration.ofSeconds(60)).retryMaxBackoff(Duration.ofMillis(500))
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        try (java.sql.Connection blocker = tgt.connect(); java.sql.Statement st = blocker.createStatement()) {
            src.execute("INSERT INTO `" + db + "`.acc VALUES (1, 1, 'a', 1), (2, 2, 'b', 2)");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)));
            blocker.setAutoCommit(false);
            st.executeQuery("SELECT COUNT(*) FROM `" + db + "`.acc").close(); // holds the table's metadata lock
            src.execute("ALTER TABLE `" + db + "`.acc ADD COLUMN z INT NOT NULL DEFAULT 5 AFTER uk",
                    "INSERT INTO `" + db + "`.acc VALUES (3, 3, 7, 'c', 3)");
            await(() -> unit.metrics().retries("1205") >= 2, Duration.ofSeconds(30),
                    () -> "lock wait retries: " + unit.metrics().retries("1205") + "; unit failure: "
                            + unit.failure().map(Throwable::getMessage).orElse("none"));
            blocker.commit();
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            assertEquals(showCreate(src, db, "acc"), showCreate(tgt, db, "acc"));
            assertSameRows(src, tgt, new TableName(db, "acc"));
        } finally {
            unit.stop();
        }
    }

    private static String showCreate(SqlServer server, String db, String table) throws SQLException {
        try (java.sql.Connection c = server.connect(); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SHOW CREATE TABLE `" + db + "`.`" + table + "`")) {
            rs.next();
            return rs.getString(2);
        }
    }

    private static SyncConfig config(SqlServer src, SqlServer tgt, String task, int workers, int batch, String db,
                                     long serverId) throws SQLException {
        return SyncConfig.builder(task, spec(src), spec(tgt)).workerCount(workers).batch(batch).serverId(serverId)
                .metaSchema(META).start(sourcePosition(src)).compact(true).multipleRows(true)
                .safeModeDuration(Duration.ZERO)
                .retryBudget(Duration.ofSeconds(60)).retryMaxBackoff(Duration.ofMillis(500))
                .tableFilter((d, t) -> d.equals(db)).build();
    }

    private static void awaitFired(InjectedErrors errors, long n, SyncUnit unit) throws Exception {
        await(() -> errors.fired() >= n, Duration.ofSeconds(60),
                () -> "injected errors fired: " + errors.fired() + " of " + n + "; unit failure: "
                        + unit.failure().map(Throwable::getMessage).orElse("none"));
    }

    private static JdmException awaitFailure(SyncUnit unit) throws Exception {
        await(() -> unit.failure().isPresent(), Duration.ofSeconds(60), () -> "the unit did not stop");
        return unit.failure().get();
    }

    private static void await(Callable<Boolean> done, Duration timeout, Callable<String> why)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(why.call());
            }
            Thread.sleep(50);
        }
    }
}
