/**
 * The long-running side of jdm: the HTTP endpoint ({@code /status} JSON in the shape of DM's
 * query-status, {@code /metrics} Prometheus text) bound to 127.0.0.1 unless configured, and the
 * client that {@code jdm status} uses to read it.
 */
package io.jdm.cli.daemon;
