package io.jdm.sync;

import io.jdm.common.position.BinaryLogs;
import io.jdm.common.position.BinlogPosition;

/**
 * DM's {@code dm_syncer_remaining_time}: the bytes of binlog between the checkpoint and the end of
 * the source's newest file, over the bytes per second the checkpoint moved since the previous
 * sample (DM: unsynced binlog size over the binlog bytes per second of its last status interval).
 * A sample in which the checkpoint did not move keeps the last estimate, as DM's gauge keeps its
 * last value; caught up is 0.
 */
final class RemainingTime {
    private BinaryLogs lastLogs;
    private BinlogPosition lastPos;
    private long lastNanos;
    private volatile double seconds;

    /**
     * One sample: the source's binary logs as just read, the checkpoint and the time now. The same
     * list again (read at most once a second, sampled on every scrape) is not a new sample.
     */
    synchronized void sample(BinaryLogs logs, BinlogPosition checkpoint, long nowNanos) {
        if (logs == null || checkpoint == null || logs == lastLogs) {
            return;
        }
        long left = logs.bytesAfter(checkpoint);
        if (left < 0) {
            return; // the checkpoint's file is not listed: nothing to measure against
        }
        if (left == 0) {
            seconds = 0;
        } else if (lastPos != null) {
            // the earlier position measured against the same, newer list: the bytes applied since
            long before = logs.bytesAfter(lastPos);
            double secs = (nowNanos - lastNanos) / 1e9;
            if (before > left && secs > 0) {
                seconds = left / ((before - left) / secs);
            }
        }
        lastLogs = logs;
        lastPos = checkpoint;
        lastNanos = nowNanos;
    }

    /** The last estimate in seconds; 0 before the first. */
    double seconds() {
        return seconds;
    }
}
