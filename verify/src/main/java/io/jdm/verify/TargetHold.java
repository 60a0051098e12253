package io.jdm.verify;

import io.jdm.common.error.FatalException;
import io.jdm.common.position.BinlogPosition;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Holds the replication that writes the target at one source position while verify compares, so
 * the target is exactly the source as of that position. The order is fixed: {@link #pause} before
 * the source snapshot is taken (the replication starts no transaction it has not started yet),
 * {@link #holdAt} with the snapshot's position P (it applies everything before P and stops there),
 * {@link #release} once the comparison is done.
 */
public interface TargetHold {
    /** Returns once the replication has promised not to start another transaction; throws if none answers. */
    void pause(Duration timeout) throws InterruptedException;

    /** Returns once the target holds every change before {@code p} and nothing after it. */
    void holdAt(BinlogPosition p, Duration timeout) throws InterruptedException;

    /** Lets the replication go on; never throws. */
    void release();

    /**
     * A hold that cannot stop the replication, only wait for it: {@link #holdAt} polls "has the
     * target applied everything up to P?" until it says yes. The target may move past P meanwhile.
     */
    static TargetHold polling(Predicate<BinlogPosition> targetReached) {
        return new TargetHold() {
            @Override
            public void pause(Duration timeout) {
            }

            @Override
            public void holdAt(BinlogPosition p, Duration timeout) throws InterruptedException {
                long deadline = System.nanoTime() + timeout.toNanos();
                while (!targetReached.test(p)) {
                    if (System.nanoTime() > deadline) {
                        throw new FatalException("verify --snapshot: the target did not reach source position " + p
                                + " within " + timeout.toSeconds() + " s; check that replication to the target "
                                + "is running, or raise the snapshot timeout");
                    }
                    Thread.sleep(100);
                }
            }

            @Override
            public void release() {
            }
        };
    }
}
