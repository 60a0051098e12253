package io.jdm.sync.ring;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What each writer has committed: the ring sequence below which none of its changes is pending,
 * and the binlog position that goes with it. Writers set; causality, the global checkpoint and
 * {@code awaitCaughtUp} read.
 */
public final class WriterProgress {
    private final AtomicLongArray sequence;
    private final AtomicReferenceArray<ChangePos> position;

    public WriterProgress(int writers) {
        sequence = new AtomicLongArray(writers);
        position = new AtomicReferenceArray<>(writers);
        for (int i = 0; i < writers; i++) {
            sequence.set(i, -1);
        }
    }

    public int writers() {
        return sequence.length();
    }

    public void committed(int writer, long seq, ChangePos pos) {
        if (pos != null) {
            position.set(writer, pos);
        }
        sequence.set(writer, seq);
    }

    public long sequence(int writer) {
        return sequence.get(writer);
    }

    public ChangePos position(int writer) {
        return position.get(writer);
    }

    /** The lowest committed sequence over all writers. */
    public long minSequence() {
        long m = Long.MAX_VALUE;
        for (int i = 0; i < sequence.length(); i++) {
            m = Math.min(m, sequence.get(i));
        }
        return m;
    }

    /** The lowest committed position over all writers (null until every writer has one). */
    public ChangePos minPosition() {
        ChangePos m = null;
        for (int i = 0; i < position.length(); i++) {
            ChangePos p = position.get(i);
            if (p == null) {
                return null;
            }
            if (m == null || p.compareTo(m) < 0) {
                m = p;
            }
        }
        return m;
    }
}
