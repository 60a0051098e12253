package io.jdm.common.retry;

import dev.failsafe.Execution;
import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;
import io.jdm.common.error.ErrorClassifier;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work on a server until it succeeds, retrying what {@link ErrorClassifier} calls retriable
 * (a caller may only narrow that) with exponential backoff and jitter, within a time budget
 * (the sync's {@code SyncConfig.retryBudget}, 2 minutes) or a count (the load's
 * {@code LoadConfig.maxRetries}, 10; 2 per chunk for the dump and verify): the writers' and the
 * load's transactions, the binlog reader's stream and schema reads, the dump's chunks, verify's
 * chunk comparisons. None of these is a task-file key (DM's {@code syncers.*.max-retry} is read
 * and ignored).
 * Every attempt runs the whole work again: the caller's attempt rolls back what it had begun
 * before it throws, so a retry never continues a half-applied transaction.
 *
 * <p>The schedule is Failsafe's {@link RetryPolicy}, tracked as a standalone {@link Execution}
 * so the pause is ours: it ends early when the unit stops, and an interrupt is kept. Jitter
 * spreads the writers that one write conflict failed together, so they do not collide again.
 */
public final class Retries {
    private static final Logger LOG = LoggerFactory.getLogger(Retries.class);
    /** Each pause is its computed value ± this fraction. */
    private static final double JITTER = 0.25;
    /** How often a pause looks at the stop condition. */
    private static final long STOP_POLL_MILLIS = 100;

    /** One try of the work; {@code retry} is false on the first. */
    public interface Attempt<T, E extends Exception> {
        T run(boolean retry) throws E;
    }

    /** The retries ran out, or the unit stopped while waiting; the cause is the last failure. */
    public static final class GaveUp extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean stopped;

        GaveUp(boolean stopped, Throwable last) {
            super(ErrorClassifier.oneLine(last), last);
            this.stopped = stopped;
        }

        /** True when the unit stopped (or the thread was interrupted) rather than the budget running out. */
        public boolean stopped() {
            return stopped;
        }
    }

    private final RetryPolicy<Object> policy;
    private final Predicate<Throwable> retriable;
    private final RetryCounter counter;
    private final BooleanSupplier stop;

    private Retries(Builder b) {
        this.retriable = b.retriable;
        this.counter = b.counter;
        this.stop = b.stop;
        RetryPolicyBuilder<Object> p = RetryPolicy.builder().handleIf((Throwable t) -> b.retriable.test(t))
                .withMaxRetries(b.maxRetries);
        Duration first = b.firstBackoff;
        if (b.budget != null) {
            first = min(first, b.budget.dividedBy(2)); // Failsafe wants the first pause inside the budget
            p.withMaxDuration(b.budget);
        }
        if (first.compareTo(b.maxBackoff) < 0) {
            p.withBackoff(first, b.maxBackoff);
        } else {
            p.withDelay(b.maxBackoff);
        }
        this.policy = p.withJitter(JITTER).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs {@code attempt} until it returns.
     *
     * @param what names the work in the log line of each retry
     * @throws E the first failure that is not retriable, as the attempt threw it
     * @throws GaveUp when the budget or count ran out, or the unit stopped
     */
    public <T, E extends Exception> T call(String what, Attempt<T, E> attempt) throws E, GaveUp {
        return call(what, attempt, () -> false);
    }

    /**
     * Runs {@code attempt} until it returns, as {@link #call(String, Attempt)} does, for work that
     * gets somewhere before it fails (a stream that reads for hours, then loses its connection):
     * when {@code progressed}, asked after each failure, says the work got further than at the
     * failure before, the schedule starts over, budget, count and backoff alike. So the budget
     * bounds how long the work goes without getting further, not how long it runs.
     */
    @SuppressWarnings("unchecked")
    public <T, E extends Exception> T call(String what, Attempt<T, E> attempt, BooleanSupplier progressed)
            throws E, GaveUp {
        Execution<Object> execution = Execution.of(policy);
        boolean retry = false;
        while (true) {
            try {
                return attempt.run(retry);
            } catch (Exception e) {
                if (!retriable.test(e)) {
                    throw (E) e;
                }
                if (progressed.getAsBoolean()) {
                    execution = Execution.of(policy);
                }
                execution.recordException(e);
                if (execution.isComplete() || stop.getAsBoolean()) {
                    throw new GaveUp(!execution.isComplete(), e);
                }
                counter.record(e);
                long pause = execution.getDelay().toMillis();
                LOG.warn("{}: retry {} in {} ms: {}", what, execution.getAttemptCount(), pause,
                        ErrorClassifier.oneLine(e));
                if (!pause(pause)) {
                    throw new GaveUp(true, e);
                }
                retry = true;
            }
        }
    }

    /** Sleeps unless the unit stops first; false when it should give up. */
    private boolean pause(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        try {
            while (!stop.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(STOP_POLL_MILLIS)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** How one unit retries; validated when built. */
    public static final class Builder {
        private Duration budget;
        private int maxRetries = -1;
        private Duration firstBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(5);
        private Predicate<Throwable> retriable = ErrorClassifier::isRetriable;
        private RetryCounter counter = new RetryCounter();
        private BooleanSupplier stop = () -> false;

        private Builder() {
        }

        /**
         * Gives up once the call has run this long; with a progress check, once this long has
         * passed since the failure at which the work had last got further.
         */
        public Builder budget(Duration d) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("retry budget must be > 0, got " + d);
            }
            budget = d;
            return this;
        }

        /** Gives up after this many retries. */
        public Builder maxRetries(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("max retries must be >= 0, got " + n);
            }
            maxRetries = n;
            return this;
        }

        /** Pauses start at {@code first} and double up to {@code max}, each ± a quarter. */
        public Builder backoff(Duration first, Duration max) {
            if (first.isNegative() || first.isZero() || max.isNegative() || max.isZero()) {
                throw new IllegalArgumentException("backoff must be > 0, got " + first + " and " + max);
            }
            firstBackoff = first;
            maxBackoff = max;
            return this;
        }

        /** Which failures are retried; {@link ErrorClassifier#isRetriable(Throwable)} unless set. */
        public Builder retryIf(Predicate<Throwable> p) {
            retriable = Objects.requireNonNull(p);
            return this;
        }

        /** Where each retry is counted. */
        public Builder counter(RetryCounter c) {
            counter = Objects.requireNonNull(c);
            return this;
        }

        /** True once the unit stops or failed elsewhere: waiting ends and the call gives up. */
        public Builder stopWhen(BooleanSupplier s) {
            stop = Objects.requireNonNull(s);
            return this;
        }

        public Retries build() {
            if (budget == null && maxRetries < 0) {
                throw new IllegalStateException("retries need a budget or a maximum count");
            }
            return new Retries(this);
        }
    }
}
