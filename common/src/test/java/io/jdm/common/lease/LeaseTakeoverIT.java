package io.jdm.common.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A start that meets a held lease: an owner on this host that died (or whose pid now names another
 * process) is replaced at once; one it cannot see die (another host, boot or pid namespace, or a
 * process that still runs) is waited for until its lease expires, with one line saying so.
 */
class LeaseTakeoverIT {
    /** Renewed every 300 ms: a holder on a busy machine does not miss 5 s of renewals. */
    private static final TaskLease.Timing TIMING = new TaskLease.Timing(Duration.ofMillis(300), Duration.ofSeconds(5));
    private static final String META = "jdm_meta_lease_takeover";
    private static final String TASK = "takeover";

    @TempDir
    Path dir;

    private final SqlServer target = TestServers.shared().target();
    private final ConnectionSpec spec = ConnectionSpec.of(target.host(), target.port(), target.user(),
            target.password());
    private final OwnerProcess self = OwnerProcess.current();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void setUp() throws Exception {
        target.execute("DROP DATABASE IF EXISTS " + META);
        TaskLease.acquire(spec, META, TASK, "init", TIMING).close(); // creates the table
        log.start();
        ((Logger) LoggerFactory.getLogger(TaskLease.class)).addAppender(log);
    }

    @AfterEach
    void tearDown() {
        ((Logger) LoggerFactory.getLogger(TaskLease.class)).detachAppender(log);
    }

    @Test
    void anOwnerOnThisHostWhosePidIsGoneIsReplacedAtOnce() throws Exception {
        assumeTrue(self.pidSpace() != null, "no /proc of this pid namespace: an owner's death cannot be seen");
        Process sleeper = sleeper();
        long pid = sleeper.pid();
        long start = OwnerProcess.Stat.read(pid).orElseThrow().start();
        sleeper.destroyForcibly().waitFor();
        assertTrue(OwnerProcess.Stat.read(pid).isEmpty(), "pid " + pid + " still there");
        insertOwner("s1", self.host(), pid, self.pidSpace(), start);

        long t0 = System.nanoTime();
        try (TaskLease lease = TaskLease.acquire(spec, META, TASK, "s1", TIMING, LeaseWait.refuse())) {
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(ms < 2000, "took " + ms + " ms");
            assertEquals(ProcessHandle.current().pid(), ownerPid("s1"));
        }
        assertEquals(1, lines("taking over the lease of " + self.host() + " pid " + pid
                + ", which no longer runs on this host").size(), log.list.toString());
    }

    @Test
    void anOwnerWhosePidNowNamesAnotherProcessIsReplacedAtOnceTheProcessItselfIsNot() throws Exception {
        assumeTrue(self.pidSpace() != null, "no /proc of this pid namespace: an owner's death cannot be seen");
        Process sleeper = sleeper();
        try {
            long pid = sleeper.pid();
            long start = OwnerProcess.Stat.read(pid).orElseThrow().start();
            insertOwner("same", self.host(), pid, self.pidSpace(), start);
            FatalException e = assertThrows(FatalException.class,
                    () -> TaskLease.acquire(spec, META, TASK, "same", TIMING, LeaseWait.refuse()));
            assertTrue(e.getMessage().contains("source same is already run by " + self.host() + " pid " + pid),
                    e.getMessage());

            insertOwner("reused", self.host(), pid, self.pidSpace(), start + 1);
            TaskLease.acquire(spec, META, TASK, "reused", TIMING, LeaseWait.refuse()).close();
            assertEquals(1, lines("taking over the lease of " + self.host() + " pid " + pid).size(),
                    log.list.toString());
        } finally {
            sleeper.destroyForcibly().waitFor();
        }
    }

    @Test
    void aDeadPidIsNotTakenWhereThisHostCannotSeeTheOwner() throws Exception {
        assumeTrue(self.pidSpace() != null, "no /proc of this pid namespace: every owner is waited for");
        Process sleeper = sleeper();
        long pid = sleeper.pid();
        sleeper.destroyForcibly().waitFor();
        String space = self.pidSpace();
        insertOwner("other-host", "elsewhere-" + self.host(), pid, space, 1L);
        insertOwner("other-boot", self.host(), pid, "another-boot " + space.substring(space.indexOf(' ') + 1), 1L);
        insertOwner("other-ns", self.host(), pid, space.substring(0, space.indexOf(' ') + 1) + "pid:[1]", 1L);
        insertOwner("old-row", self.host(), pid, null, null); // written before the columns existed
        for (String source : List.of("other-host", "other-boot", "other-ns", "old-row")) {
            FatalException e = assertThrows(FatalException.class,
                    () -> TaskLease.acquire(spec, META, TASK, source, TIMING, LeaseWait.refuse()), source);
            assertTrue(e.getMessage().contains("source " + source + " is already run by")
                    && e.getMessage().contains("pid " + pid), e.getMessage());
        }
        assertEquals(List.of(), lines("taking over"));
    }

    @Test
    void aTableOfAnEarlierVersionGetsTheColumnsAndItsRowsAreWaitedFor() throws Exception {
        String meta = META + "_old";
        target.execute("DROP DATABASE IF EXISTS " + meta, "CREATE DATABASE " + meta,
                "CREATE TABLE " + meta + "." + TASK + "_owner (source_id VARCHAR(128) NOT NULL PRIMARY KEY, "
                        + "owner_host VARCHAR(255) NOT NULL, owner_pid BIGINT NOT NULL, token VARCHAR(64) NOT NULL, "
                        + "acquired_at DATETIME(3) NOT NULL, expires_at DATETIME(3) NOT NULL) ENGINE=InnoDB",
                "INSERT INTO " + meta + "." + TASK + "_owner VALUES ('s1', '" + self.host() + "', "
                        + deadPid() + ", 'old', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3) + INTERVAL 1 HOUR)");
        FatalException e = assertThrows(FatalException.class,
                () -> TaskLease.acquire(spec, meta, TASK, "s1", TIMING, LeaseWait.refuse()));
        assertTrue(e.getMessage().contains("source s1 is already run by " + self.host()), e.getMessage());
        try (TaskLease lease = TaskLease.acquire(spec, meta, TASK, "s2", TIMING, LeaseWait.refuse());
             Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT owner_pid_space, owner_start FROM " + meta + "." + TASK
                     + "_owner WHERE source_id = 's2'")) {
            assertTrue(rs.next());
            assertEquals(self.pidSpace(), rs.getString(1));
            assertEquals(self.start(), rs.getObject(2) == null ? null : rs.getLong(2));
        }
        String create = target.rows("SHOW CREATE TABLE " + meta + "." + TASK + "_owner").get(0);
        assertTrue(create.contains("`owner_pid_space` varchar(128)") && create.contains("`owner_start` bigint"),
                create);
    }

    @Test
    void aLiveOwnerIsWaitedForSaidOnceAndReplacedOnceItsLeaseExpires() throws Exception {
        Process holder = holder("s1");
        try {
            LeaseWait wait = LeaseWait.untilTaken();
            CompletableFuture<TaskLease> taken = CompletableFuture.supplyAsync(
                    () -> TaskLease.acquire(spec, META, TASK, "s1", TIMING, wait));
            // the holder renews: past an expiry it still has the lease
            assertThrows(TimeoutException.class,
                    () -> taken.get(TIMING.expiry().toMillis() + 1000, TimeUnit.MILLISECONDS));
            assertEquals(holder.pid(), ownerPid("s1"));

            signal("STOP", holder); // alive, but renews no more
            long stopped = System.nanoTime();
            try (TaskLease lease = taken.get(30, TimeUnit.SECONDS)) {
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
                assertTrue(ms < TIMING.expiry().toMillis() + 2000, "took " + ms + " ms");
                assertEquals(ProcessHandle.current().pid(), ownerPid("s1"));
            }
            List<String> said = lines("source s1 is run by " + self.host() + " pid " + holder.pid() + " since ");
            assertEquals(1, said.size(), log.list.toString());
            assertTrue(said.get(0).contains("lease expires at")
                    && said.get(0).contains("waiting for its lease until it is free"), said.get(0));
            assertEquals(1, lines("source s1: taking over the lease of " + self.host() + " pid " + holder.pid()
                    + ", which expired at").size(), log.list.toString());
        } finally {
            holder.destroyForcibly().waitFor();
        }
    }

    @Test
    void aBoundedWaitEndsWithTheOwnersLineAndAStoppedWaitTakesNothing() throws Exception {
        Process holder = holder("s1");
        try {
            long t0 = System.nanoTime();
            FatalException e = assertThrows(FatalException.class,
                    () -> TaskLease.acquire(spec, META, TASK, "s1", TIMING, LeaseWait.upTo(Duration.ofSeconds(2))));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(ms >= 2000 && ms < 10_000, "took " + ms + " ms");
            assertTrue(e.getMessage().contains("source s1 is already run by " + self.host() + " pid " + holder.pid())
                    && e.getMessage().contains("waited 2s for it"), e.getMessage());

            LeaseWait wait = LeaseWait.untilTaken();
            CompletableFuture<TaskLease> taken = CompletableFuture.supplyAsync(
                    () -> TaskLease.acquire(spec, META, TASK, "s1", TIMING, wait));
            Thread.sleep(1000);
            assertFalse(taken.isDone());
            long stop = System.nanoTime();
            wait.stop();
            ExecutionException stopped = assertThrows(ExecutionException.class, () -> taken.get(10, TimeUnit.SECONDS));
            assertTrue(stopped.getCause() instanceof LeaseWait.Stopped, stopped.toString());
            assertTrue(System.nanoTime() - stop < TimeUnit.SECONDS.toNanos(1), "the wait did not end at once");
            assertEquals(holder.pid(), ownerPid("s1"));
            assertTrue(holder.isAlive());
            assertFalse(Files.readString(dir.resolve("holder-s1.log")).contains("lost"));
        } finally {
            holder.destroyForcibly().waitFor();
        }
    }

    private Process holder(String sourceId) throws Exception {
        Path out = dir.resolve("holder-" + sourceId + ".log");
        Process p = LeaseHolder.start(out, spec, META, TASK, sourceId, TIMING);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(out).contains("held")) {
            assertTrue(p.isAlive() && System.nanoTime() < deadline, () -> "no lease held: " + read(out));
            Thread.sleep(50);
        }
        return p;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    /** A pid that named a process a moment ago. */
    private static long deadPid() throws Exception {
        Process p = sleeper();
        p.destroyForcibly().waitFor();
        return p.pid();
    }

    private static Process sleeper() throws Exception {
        return new ProcessBuilder("sleep", "600").start();
    }

    private static void signal(String name, Process p) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start().waitFor());
    }

    private List<String> lines(String part) {
        return log.list.stream().map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains(part)).toList();
    }

    /** A lease row as its owner would have written it, expiring in an hour. */
    private void insertOwner(String sourceId, String host, long pid, String pidSpace, Long start) throws Exception {
        try (Connection c = target.connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + META + "." + TASK + "_owner (source_id, "
                     + "owner_host, owner_pid, owner_pid_space, owner_start, token, acquired_at, expires_at) VALUES "
                     + "(?, ?, ?, ?, ?, 'dead', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3) + INTERVAL 1 HOUR)")) {
            ps.setString(1, sourceId);
            ps.setString(2, host);
            ps.setLong(3, pid);
            ps.setString(4, pidSpace);
            ps.setObject(5, start);
            ps.executeUpdate();
        }
    }

    private long ownerPid(String sourceId) throws Exception {
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT owner_pid FROM " + META + "." + TASK + "_owner WHERE source_id = '"
                     + sourceId + "'")) {
            assertTrue(rs.next(), "no lease row of " + sourceId);
            return rs.getLong(1);
        }
    }
}
