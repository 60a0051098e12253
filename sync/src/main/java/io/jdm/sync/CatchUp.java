package io.jdm.sync;

import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.ring.WriterProgress;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Whether what the reader has handed on is committed: for a pause, and for "caught up with the
 * source at P" (DM's {@code synced}, the demo, the bench). Waiting for the writers sleeps until a
 * writer commits ({@link WriterProgress#awaitCommitted}); waiting for the reader to reach P
 * looks again every {@link #READ_POLL}, since the reader tells no one when it has read an event.
 */
final class CatchUp {
    static final Duration READ_POLL = Duration.ofMillis(20);

    private final Supplier<BinlogPosition> readerPosition;
    private final LongSupplier published;
    private final WriterProgress progress;
    private final BooleanSupplier failed;

    /**
     * @param readerPosition the end of the last event the reader has read; null before it has read one
     * @param published the ring's cursor: the last slot handed to the writers
     * @param failed true once the unit failed: every wait gives up
     */
    CatchUp(Supplier<BinlogPosition> readerPosition, LongSupplier published, WriterProgress progress,
            BooleanSupplier failed) {
        this.readerPosition = readerPosition;
        this.published = published;
        this.progress = progress;
        this.failed = failed;
    }

    /** Waits until every slot handed to the writers is committed; false on timeout or failure. */
    boolean awaitPublishedCommitted(Duration timeout) throws InterruptedException {
        return progress.awaitCommitted(published, failed, System.nanoTime() + timeout.toNanos());
    }

    /**
     * Waits until every change up to {@code sourcePos} (as {@code SHOW MASTER STATUS} gives it) is
     * committed on the target. False on timeout or when the unit failed.
     */
    boolean await(BinlogPosition sourcePos, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!read(sourcePos)) {
            if (failed.getAsBoolean() || System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(READ_POLL.toMillis());
        }
        long target = published.getAsLong();
        return progress.awaitCommitted(() -> target, failed, deadline);
    }

    /**
     * True when the reader has read up to {@code sourcePos} and every change it handed on is
     * committed: caught up at this moment.
     */
    boolean caughtUp(BinlogPosition sourcePos) {
        return read(sourcePos) && progress.minSequence() >= published.getAsLong();
    }

    private boolean read(BinlogPosition sourcePos) {
        BinlogPosition read = readerPosition.get();
        return read != null && read.compareTo(BinlogPosition.of(sourcePos.file(), sourcePos.pos())) >= 0;
    }
}
