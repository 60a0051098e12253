package io.jdm.common.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.meta.MetaTable;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Processes of one task taking their leases at the same moment, as when every source's process
 * of a task starts at once: different sources all get theirs, one source goes to exactly one.
 */
class TaskLeaseIT {
    private static final TaskLease.Timing TIMING = new TaskLease.Timing(Duration.ofSeconds(1), Duration.ofSeconds(5));
    private static final int ROUNDS = 15;

    private final SqlServer target = TestServers.shared().target();
    private final ConnectionSpec spec = ConnectionSpec.of(target.host(), target.port(), target.user(),
            target.password());

    @Test
    void differentSourcesOfOneTaskTakeTheirLeasesAtOnce() throws Exception {
        target.execute("DROP DATABASE IF EXISTS jdm_meta_lease_many");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                CyclicBarrier start = new CyclicBarrier(4);
                List<Future<TaskLease>> taken = new ArrayList<>();
                for (int s = 0; s < 4; s++) {
                    String id = "s" + s;
                    taken.add(pool.submit(() -> {
                        start.await();
                        return TaskLease.acquire(spec, "jdm_meta_lease_many", "many", id, TIMING);
                    }));
                }
                for (Future<TaskLease> f : taken) {
                    f.get().close(); // throws if one was refused or failed
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A task whose meta tables a newer jdm wrote (a newer form kept) is refused in one line; its own form is kept. */
    @Test
    void aTaskANewerJdmRanIsRefusedByAnOlderOne() throws Exception {
        target.execute("DROP DATABASE IF EXISTS jdm_meta_lease_form");
        TaskLease.acquire(spec, "jdm_meta_lease_form", "form", "s1", TIMING).close();
        String kept = "SELECT version FROM jdm_meta_lease_form.form_meta_version";
        assertEquals(List.of(String.valueOf(MetaTable.VERSION)), target.rows(kept), "kept after the lease is gone");
        target.execute("UPDATE jdm_meta_lease_form.form_meta_version SET version = " + (MetaTable.VERSION + 1));
        FatalException e = assertThrows(FatalException.class,
                () -> TaskLease.acquire(spec, "jdm_meta_lease_form", "form", "s2", TIMING));
        assertTrue(e.getMessage().contains("task form: its meta tables in jdm_meta_lease_form were written by a newer"
                + " jdm") && !e.getMessage().contains("\n"), e.getMessage());
        assertEquals(List.of(), target.rows("SELECT source_id FROM jdm_meta_lease_form.form_owner"), "no lease taken");
        assertEquals(List.of(String.valueOf(MetaTable.VERSION + 1)), target.rows(kept), "the newer form stays");
    }

    @Test
    void oneSourceGoesToExactlyOneOfTheProcessesStartingAtOnce() throws Exception {
        target.execute("DROP DATABASE IF EXISTS jdm_meta_lease_one");
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                CyclicBarrier start = new CyclicBarrier(3);
                List<Future<TaskLease>> tries = new ArrayList<>();
                for (int p = 0; p < 3; p++) {
                    tries.add(pool.submit(() -> {
                        start.await();
                        try {
                            return TaskLease.acquire(spec, "jdm_meta_lease_one", "one", "s1", TIMING);
                        } catch (FatalException e) {
                            assertTrue(e.getMessage().contains("source s1 is already run by")
                                    || e.getMessage().contains("was taken by another process"), e.getMessage());
                            return null;
                        }
                    }));
                }
                List<TaskLease> owners = new ArrayList<>();
                for (Future<TaskLease> f : tries) {
                    if (f.get() != null) {
                        owners.add(f.get());
                    }
                }
                assertEquals(1, owners.size(), "round " + round);
                owners.forEach(TaskLease::close);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
