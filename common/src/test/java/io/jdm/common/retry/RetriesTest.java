package io.jdm.common.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The retry schedule: what is retried, how often, how long, and what is counted. */
class RetriesTest {
    private static final SQLException CONFLICT = new SQLException("Write conflict", "HY000", 9007);
    private static final SQLException SCHEMA = new SQLException("Information schema is changed", "HY000", 8028);

    @Test
    void retriesRetriableFailuresAndCountsThemByCode() throws Exception {
        RetryCounter counter = new RetryCounter();
        Retries r = Retries.builder().budget(Duration.ofSeconds(10))
                .backoff(Duration.ofMillis(1), Duration.ofMillis(4)).counter(counter).build();
        List<Boolean> retryFlags = new ArrayList<>();
        String result = r.call("work", retry -> {
            retryFlags.add(retry);
            if (retryFlags.size() <= 2) {
                throw CONFLICT;
            }
            if (retryFlags.size() == 3) {
                throw SCHEMA;
            }
            return "done";
        });
        assertEquals("done", result);
        assertEquals(List.of(false, true, true, true), retryFlags);
        assertEquals(2, counter.count("9007"));
        assertEquals(1, counter.count("8028"));
        assertEquals(3, counter.total());
    }

    @Test
    void aFailureThatIsNotRetriablePassesThroughAtOnce() {
        RetryCounter counter = new RetryCounter();
        Retries r = Retries.builder().budget(Duration.ofSeconds(10)).counter(counter).build();
        SQLException missing = new SQLException("Table 't' doesn't exist", "42S02", 1146);
        AtomicInteger attempts = new AtomicInteger();
        SQLException thrown = assertThrows(SQLException.class, () -> r.call("work", retry -> {
            attempts.incrementAndGet();
            throw missing;
        }));
        assertSame(missing, thrown);
        assertEquals(1, attempts.get());
        assertEquals(0, counter.total());
    }

    @Test
    void theCountBoundsTheRetries() {
        RetryCounter counter = new RetryCounter();
        Retries r = Retries.builder().maxRetries(3).backoff(Duration.ofMillis(1), Duration.ofMillis(2))
                .counter(counter).build();
        AtomicInteger attempts = new AtomicInteger();
        Retries.GaveUp e = assertThrows(Retries.GaveUp.class, () -> r.call("work", retry -> {
            attempts.incrementAndGet();
            throw CONFLICT;
        }));
        assertEquals(4, attempts.get());
        assertEquals(3, counter.total());
        assertFalse(e.stopped());
        assertSame(CONFLICT, e.getCause());
    }

    @Test
    void theBudgetBoundsTheTime() {
        Retries r = Retries.builder().budget(Duration.ofMillis(300))
                .backoff(Duration.ofMillis(20), Duration.ofMillis(50)).build();
        long t0 = System.nanoTime();
        assertThrows(Retries.GaveUp.class, () -> r.call("work", retry -> {
            throw CONFLICT;
        }));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms >= 250 && ms < 3_000, "gave up after " + ms + " ms");
    }

    /**
     * 40, 80, 160, 160, 160 ms each ± 25%. A busy machine only lengthens a sleep, so each pause is
     * taken as its shortest of three calls: a bound from above holds for that one.
     */
    @Test
    void pausesGrowAndAreJittered() throws Exception {
        Retries r = Retries.builder().maxRetries(6).backoff(Duration.ofMillis(40), Duration.ofMillis(160)).build();
        long[] pauses = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
        for (int call = 0; call < 3; call++) {
            List<Long> starts = new ArrayList<>();
            r.call("work", retry -> {
                starts.add(System.nanoTime());
                if (starts.size() <= 5) {
                    throw CONFLICT;
                }
                return null;
            });
            for (int i = 1; i < starts.size(); i++) {
                pauses[i - 1] = Math.min(pauses[i - 1], (starts.get(i) - starts.get(i - 1)) / 1_000_000);
            }
        }
        String shown = java.util.Arrays.toString(pauses);
        assertTrue(pauses[0] >= 25 && pauses[0] < 120, "first pause " + shown);
        assertTrue(pauses[4] >= 115, "capped pause " + shown);
        // uncapped, the last two would be 320 and 640 ms ± 25%, so never both under 240
        assertTrue(Math.min(pauses[3], pauses[4]) < 240, "capped pause " + shown);
    }

    @Test
    void aStopEndsTheWaitAndGivesUp() {
        AtomicBoolean stop = new AtomicBoolean();
        Retries r = Retries.builder().budget(Duration.ofMinutes(5))
                .backoff(Duration.ofSeconds(30), Duration.ofSeconds(60)).stopWhen(stop::get).build();
        new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            stop.set(true);
        }).start();
        long t0 = System.nanoTime();
        Retries.GaveUp e = assertThrows(Retries.GaveUp.class, () -> r.call("work", retry -> {
            throw CONFLICT;
        }));
        assertTrue(e.stopped());
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 5_000);
    }

    @Test
    void progressStartsTheScheduleOver() {
        Retries r = Retries.builder().budget(Duration.ofMillis(300)).maxRetries(1)
                .backoff(Duration.ofMillis(1), Duration.ofMillis(2)).build();
        AtomicInteger attempts = new AtomicInteger();
        long t0 = System.nanoTime();
        Retries.GaveUp e = assertThrows(Retries.GaveUp.class, () -> r.call("stream", retry -> {
            attempts.incrementAndGet();
            Thread.sleep(100); // got somewhere, then lost it
            throw CONFLICT;
        }, () -> attempts.get() <= 6));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        // one retry and 300 ms allowed: the six failures after progress each start both over, the
        // seventh is the one retry of the sixth's schedule
        assertEquals(7, attempts.get());
        assertTrue(ms >= 600, "ran " + ms + " ms, past the budget while it got further");
        assertFalse(e.stopped());
    }

    @Test
    void withoutProgressTheScheduleRunsOut() {
        Retries r = Retries.builder().maxRetries(1).backoff(Duration.ofMillis(1), Duration.ofMillis(2)).build();
        AtomicInteger attempts = new AtomicInteger();
        assertThrows(Retries.GaveUp.class, () -> r.call("stream", retry -> {
            attempts.incrementAndGet();
            throw CONFLICT;
        }, () -> false));
        assertEquals(2, attempts.get());
    }
}
