/**
 * Writers: worker-count Disruptor handlers, each batching the changes routed to it into one target
 * transaction with its checkpoint row; compaction, multi-row SQL through the shared value encoder,
 * safe mode, retries, and DDL behind a drain barrier.
 */
package io.jdm.sync.writer;
