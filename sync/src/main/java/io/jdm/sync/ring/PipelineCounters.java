package io.jdm.sync.ring;

import io.jdm.common.metrics.Latency;
import io.jdm.common.metrics.Throughput;
import io.prometheus.metrics.core.metrics.Histogram;
import io.jdm.common.retry.RetryCounter;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Counters every stage adds to; {@code SyncMetrics} reads them. */
public final class PipelineCounters {
    public final Throughput events = new Throughput("events");
    public final Throughput rows = new Throughput("rows");
    public final Throughput txns = new Throughput("transactions");
    public final Latency txnLatency = new Latency("txn");
    public final Latency batchSize = new Latency("batch");
    public final LongAdder drains = new LongAdder();
    public final LongAdder skipped = new LongAdder();
    /** Writer retries by reason (the target's error code). */
    public final RetryCounter retries = new RetryCounter();
    public final LongAdder ddl = new LongAdder();
    /** Source event time (ms) of the last change committed, for replication lag. */
    public final AtomicLong lastCommittedEventMillis = new AtomicLong();
    public final AtomicLong lastCommitWallMillis = new AtomicLong();
    public final AtomicLong lastReadEventMillis = new AtomicLong();
    /** Bytes of the binlog events the reader received (a compressed transaction as its payload). */
    public final LongAdder binlogBytes = new LongAdder();
    /** Bytes per binlog event received, in DM's buckets (16 bytes to 8 MiB, doubling). */
    public final Histogram binlogEventSize = Histogram.builder().name("binlog_event_size").classicOnly()
            .classicExponentialUpperBounds(16, 2, 20).build();
    /** Source event time to commit, per committed transaction, in DM's buckets (0.5s to 1024s). */
    public final Histogram replicationLag = Histogram.builder().name("replication_lag").classicOnly()
            .classicExponentialUpperBounds(0.5, 2, 12).build();
    /** Row changes per committed transaction, in DM's buckets (1 to 1001 by 50). */
    public final Histogram transactionRows = Histogram.builder().name("transaction_rows").classicOnly()
            .classicLinearUpperBounds(1, 50, 21).build();
    /** Seconds between two stores of the global checkpoint, in DM's buckets (1 to 1001 by 50). */
    public final Histogram checkpointFlushIntervals = Histogram.builder().name("checkpoint_flush_interval")
            .classicOnly().classicLinearUpperBounds(1, 50, 21).build();

    /** The reader received a binlog event of {@code bytes} (its header's length). */
    public void binlogEvent(long bytes) {
        binlogBytes.add(bytes);
        binlogEventSize.observe(bytes);
    }

    /** A writer committed a transaction whose last change happened at {@code eventMillis} on the source. */
    public void committed(long eventMillis) {
        lastCommittedEventMillis.accumulateAndGet(eventMillis, Math::max);
        if (eventMillis > 0) {
            replicationLag.observe(Math.max(0, System.currentTimeMillis() - eventMillis) / 1000.0);
        }
    }
}
