package io.jdm.verify;

import io.jdm.common.position.BinlogPosition;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Comparing a source that is still being written. The source is read inside one consistent
 * snapshot taken at binlog position P (under a brief FLUSH TABLES WITH READ LOCK), and the target is
 * compared once {@code hold} says it holds everything up to P. A hold that keeps the target exactly
 * at P ({@code jdm verify --snapshot} with a running sync) needs one round; one that only waits until
 * the target has passed P ({@link TargetHold#polling}) lets rows written after P arrive meanwhile,
 * so chunks that differ are compared again, at a new snapshot, up to {@code rounds} times before
 * they are reported.
 *
 * @param hold pauses the replication before P is taken and holds (or waits for) the target at P
 * @param timeout how long to wait for the target to reach P, per round
 * @param rounds how many times a differing chunk is compared in total (1 = no second look)
 */
public record SnapshotOptions(boolean enabled, TargetHold hold, Duration timeout, int rounds) {
    /** A plain comparison of whatever both sides hold now. */
    public static final SnapshotOptions NONE =
            new SnapshotOptions(false, TargetHold.polling(p -> true), Duration.ZERO, 1);

    public SnapshotOptions {
        Objects.requireNonNull(hold, "hold");
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
        return new SnapshotOptions(true, hold, timeout, 1);
    }

    /** Waits until {@code targetReached} says the target passed P; differing chunks get three looks. */
    public static SnapshotOptions waitFor(Predicate<BinlogPosition> targetReached, Duration timeout) {
        return waitFor(targetReached, timeout, 3);
    }

    public static SnapshotOptions waitFor(Predicate<BinlogPosition> targetReached, Duration timeout, int rounds) {
        return new SnapshotOptions(true, TargetHold.polling(targetReached), timeout, rounds);
    }
}
