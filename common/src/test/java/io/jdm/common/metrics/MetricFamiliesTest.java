package io.jdm.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.snapshots.Labels;
import org.junit.jupiter.api.Test;

class MetricFamiliesTest {
    private static int count(String text, String line) {
        return (int) text.lines().filter(l -> l.equals(line)).count();
    }

    @Test
    void oneHelpAndTypePerNameWhateverTheSources() {
        MetricFamilies f = new MetricFamilies();
        for (String source : new String[] {"a", "b"}) {
            for (int w = 0; w < 3; w++) {
                f.gauge("dm_syncer_queue_size", "remain size of the DML queue",
                        ProcessMetrics.unitLabels("t", source).add("queue_id", "q_" + w), w);
            }
            f.counter("jdm_sync_rows_total", "rows", ProcessMetrics.unitLabels("t", source), 7);
        }
        String text = f.text();
        assertEquals(1, count(text, "# TYPE dm_syncer_queue_size gauge"), text);
        assertEquals(1, text.lines().filter(l -> l.startsWith("# HELP dm_syncer_queue_size ")).count(), text);
        assertEquals(6, text.lines().filter(l -> l.startsWith("dm_syncer_queue_size{")).count(), text);
        assertEquals(1, count(text, "# TYPE jdm_sync_rows_total counter"), text);
        assertTrue(text.contains("jdm_sync_rows_total{source_id=\"b\",task=\"t\"} 7"), text);
    }

    @Test
    void latencyIsAHistogramInSecondsWithSumAndCount() {
        Latency l = new Latency("txn");
        l.recordNanos(3_000_000); // 3ms
        l.recordNanos(2_000_000_000L); // 2s
        String text = new MetricFamilies().histogram("dm_syncer_txn_duration_time", "txn", Labels.of("task", "t"), l)
                .text();
        assertEquals(1, count(text, "# TYPE dm_syncer_txn_duration_time histogram"), text);
        assertTrue(text.contains("dm_syncer_txn_duration_time_count{task=\"t\"} 2"), text);
        assertTrue(text.contains("dm_syncer_txn_duration_time_sum{task=\"t\"} 2.003"), text);
        // DM's duration buckets: 5µs doubling; 0.00512s is the first bound above 3ms
        assertTrue(text.contains("dm_syncer_txn_duration_time_bucket{task=\"t\",le=\"0.00512\"} 1"), text);
        assertTrue(text.contains("dm_syncer_txn_duration_time_bucket{task=\"t\",le=\"+Inf\"} 2"), text);
    }

    @Test
    void countersEndInTotalAndGaugesDoNot() {
        MetricFamilies f = new MetricFamilies();
        assertThrows(IllegalArgumentException.class, () -> f.counter("jdm_rows", "x", Labels.EMPTY, 1));
        assertThrows(IllegalArgumentException.class, () -> f.gauge("jdm_files_total", "x", Labels.EMPTY, 1));
    }

    @Test
    void dmErrorCountsKeepTheirNameUntyped() {
        String text = new MetricFamilies().untyped("dm_syncer_exit_with_error_count", "exits",
                Labels.of("resumable_err", "true"), 1).text();
        assertTrue(text.contains("# TYPE dm_syncer_exit_with_error_count untyped"), text);
        assertTrue(text.contains("dm_syncer_exit_with_error_count{resumable_err=\"true\"} 1"), text);
    }
}
