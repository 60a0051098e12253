/**
 * Throughput counters and HdrHistogram latencies. Every unit reports them three ways: a periodic
 * progress line ({@link io.jdm.common.metrics.ProgressLogger}), a final summary, and Prometheus
 * text for the daemon's {@code /metrics} ({@link io.jdm.common.metrics.PrometheusWriter}).
 */
package io.jdm.common.metrics;
