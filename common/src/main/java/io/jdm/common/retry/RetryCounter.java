package io.jdm.common.retry;

import io.jdm.common.error.ErrorClassifier;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Retries of one unit, counted by reason: the error code ({@code 9007}), {@code io} or {@code other}. */
public final class RetryCounter {
    private final Map<String, LongAdder> byReason = new ConcurrentHashMap<>();

    public void record(Throwable failure) {
        byReason.computeIfAbsent(ErrorClassifier.reason(failure), k -> new LongAdder()).increment();
    }

    public long total() {
        return byReason.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** The count for one reason, 0 when none. */
    public long count(String reason) {
        LongAdder a = byReason.get(reason);
        return a == null ? 0 : a.sum();
    }

    /** Every reason seen so far with its count, in order of the reason. */
    public Map<String, Long> byReason() {
        Map<String, Long> m = new TreeMap<>();
        byReason.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }
}
