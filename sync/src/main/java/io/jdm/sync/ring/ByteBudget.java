package io.jdm.sync.ring;

import io.jdm.common.error.FatalException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Bounds the bytes of row images between the reader and the target. The ring bounds changes in
 * slots, but one slot may hold a row as large as the source's {@code max_allowed_packet}, so slots
 * alone would let the ring and the writers' batches hold thousands of such rows. The reader takes a
 * change's bytes before it publishes it; the writer that applies the change gives them back once its
 * batch is committed (or at once when the change is skipped).
 *
 * <p>A change larger than the whole budget waits until nothing else is in flight and then goes
 * alone, so any row that the source could write can still pass. No deadlock: a writer commits what
 * it holds whenever it reaches the last published slot (and before every drain), so a waiting
 * reader is always followed by releases.
 */
public final class ByteBudget {
    /** What a value costs besides its bytes: the reference, the object header, the array. */
    private static final int VALUE_OVERHEAD = 24;

    private final long limit;
    private final BooleanSupplier aborted;
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();

    public ByteBudget(long limit, BooleanSupplier aborted) {
        if (limit <= 0) {
            throw new IllegalArgumentException("byte budget must be positive: " + limit);
        }
        this.limit = limit;
        this.aborted = aborted;
    }

    /**
     * The default: a sixteenth of the heap, at most 512 MiB and at least 16 MiB. A writer holds about
     * twice a change's bytes more while it encodes and sends it, and the reader holds an event being
     * decoded (up to max_allowed_packet, in several copies) apart from the budget; rows of several MiB
     * are humongous objects for G1, so the rest of the heap must stay roomy, not merely large enough.
     */
    public static long defaultLimit() {
        long sixteenth = Runtime.getRuntime().maxMemory() / 16;
        return Math.max(16L << 20, Math.min(512L << 20, sixteenth));
    }

    /** Waits until {@code bytes} fit (or nothing else is in flight), then takes them. */
    public void acquire(long bytes) {
        long spins = 0;
        while (true) {
            long cur = inFlight.get();
            if (cur == 0 || cur + bytes <= limit) {
                if (inFlight.compareAndSet(cur, cur + bytes)) {
                    peak.accumulateAndGet(cur + bytes, Math::max);
                    return;
                }
                continue;
            }
            if (aborted.getAsBoolean()) {
                throw new FatalException("sync: reader stopped: another stage failed");
            }
            LockSupport.parkNanos(spins++ < 100 ? 10_000 : 200_000);
        }
    }

    public void release(long bytes) {
        if (bytes != 0) {
            inFlight.addAndGet(-bytes);
        }
    }

    public long limit() {
        return limit;
    }

    public long inFlight() {
        return inFlight.get();
    }

    /** The most bytes ever in flight at once. */
    public long peak() {
        return peak.get();
    }

    /** What a change's row images hold in memory, about. */
    public static long sizeOf(RowChange c) {
        return 64 + sizeOf(c.before()) + sizeOf(c.after());
    }

    private static long sizeOf(Object[] row) {
        if (row == null) {
            return 0;
        }
        long n = 16L + 8L * row.length;
        for (Object v : row) {
            if (v instanceof byte[] b) {
                n += VALUE_OVERHEAD + b.length;
            } else if (v instanceof CharSequence s) { // a String, or a JSON document's text
                n += VALUE_OVERHEAD + 2L * s.length();
            } else if (v != null) {
                n += VALUE_OVERHEAD;
            }
        }
        return n;
    }
}
