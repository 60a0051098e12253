/**
 * Throughput counters and HdrHistogram latencies. Every unit reports them three ways: a periodic
 * progress line ({@link io.jdm.common.metrics.ProgressLogger}), a final summary, and series for
 * the daemon's {@code /metrics}: the process's one Prometheus registry
 * ({@link io.jdm.common.metrics.ProcessMetrics}) reads every registered unit at scrape time into
 * one family per name ({@link io.jdm.common.metrics.MetricFamilies}), beside the JVM's metrics.
 */
package io.jdm.common.metrics;
