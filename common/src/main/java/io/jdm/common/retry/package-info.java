/**
 * The one retry policy every unit uses for work on a server (target writes, the source's binlog
 * stream, verify's reads): exponential backoff with jitter, bounded by a time budget or a count,
 * retrying what {@link io.jdm.common.error.ErrorClassifier} calls retriable, and counting each
 * retry by its reason (the error code) for the unit's metrics.
 */
package io.jdm.common.retry;
