package io.jdm.common.verify;

import io.jdm.common.position.BinlogPosition;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Comparing a source that is still being written. The source is read inside one consistent
 * snapshot taken at binlog position P (under a brief FLUSH TABLES WITH READ LOCK), and the target
 * is compared once {@code targetReached.test(P)} says the replication applying to it has passed P.
 * Rows written after P keep arriving on the target while it is compared, so chunks that differ are
 * compared again, at a new snapshot, up to {@code rounds} times before they are reported.
 *
 * <p>With a {@link TargetHold} there is no such race: the replication is stopped exactly at P for
 * the comparison, so one round decides.
 *
 * @param targetReached "has the target applied everything up to this source position?"; the sync
 *     unit's checkpoint answers it, verify does not know about the sync unit
 * @param timeout how long to wait for the target to reach P, per round
 * @param rounds how many times a differing chunk is compared in total (1 = no second look)
 * @param hold when not null, holds the replication at P instead of polling {@code targetReached}
 */
public record SnapshotOptions(boolean enabled, Predicate<BinlogPosition> targetReached, Duration timeout,
                              int rounds, TargetHold hold) {
    /** A plain comparison of whatever both sides hold now. */
    public static final SnapshotOptions NONE = new SnapshotOptions(false, p -> true, Duration.ZERO, 1);

    public SnapshotOptions(boolean enabled, Predicate<BinlogPosition> targetReached, Duration timeout, int rounds) {
        this(enabled, targetReached, timeout, rounds, null);
    }

    public SnapshotOptions {
        Objects.requireNonNull(targetReached, "targetReached");
        Objects.requireNonNull(timeout, "timeout");
        if (rounds < 1 || rounds > 100) {
            throw new IllegalArgumentException("snapshot.rounds: must be 1..100, got " + rounds);
        }
        if (enabled && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("snapshot.timeout: must be positive, got " + timeout);
        }
    }

    /** Holds the replication at the snapshot's position for the comparison; {@code timeout} bounds each wait. */
    public static SnapshotOptions held(TargetHold hold, Duration timeout) {
        return new SnapshotOptions(true, p -> true, timeout, 1, Objects.requireNonNull(hold, "hold"));
    }

    public static SnapshotOptions waitFor(Predicate<BinlogPosition> targetReached, Duration timeout) {
        return new SnapshotOptions(true, targetReached, timeout, 3);
    }
}
