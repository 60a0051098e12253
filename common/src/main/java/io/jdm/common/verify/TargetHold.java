package io.jdm.common.verify;

import io.jdm.common.position.BinlogPosition;
import java.time.Duration;

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
}
