package io.jdm.sync.ring;

import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a running sync stands still, for its status: the statement it stopped at (the first
 * refusal wins, as the first failure stops the unit) or, before that, the statements its writers
 * are retrying, each until it commits. Kept in memory only: a statement the target refused is in
 * the failure line of the log, and a DDL also in its marker on the target.
 */
public final class StoppedAt {
    private record Retried(ChangePos at, StoppedStatement statement) {
    }

    private final Map<Integer, Retried> retrying = new ConcurrentHashMap<>();
    private volatile StoppedStatement stopped;

    /** Writer {@code writer} retries {@code s}, whose change is at {@code at}. */
    public void retrying(int writer, ChangePos at, StoppedStatement s) {
        retrying.put(writer, new Retried(at, s));
    }

    /** What writer {@code writer} retried has committed. */
    public void passed(int writer) {
        retrying.remove(writer);
    }

    /** The sync stops at {@code s}; the first one stays. */
    public void stopped(StoppedStatement s) {
        if (stopped == null) {
            synchronized (this) {
                if (stopped == null) {
                    stopped = s;
                }
            }
        }
    }

    /** The statement the sync stopped at, else the earliest one being retried, else null. */
    public StoppedStatement current() {
        StoppedStatement s = stopped;
        if (s != null) {
            return s;
        }
        return retrying.values().stream().min(Comparator.comparing(Retried::at)).map(Retried::statement).orElse(null);
    }
}
