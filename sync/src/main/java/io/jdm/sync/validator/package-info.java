/**
 * Continuous validation, as DM's validator: each row change the sync's writers committed is read
 * back from the target after {@code validate-interval} and compared with the change (every column
 * in {@code full} mode, existence in {@code fast}); a row that still differs after
 * {@code row-error-delay} is an error row in the meta schema, which an operator ignores, resolves or
 * clears with {@code jdm validation}.
 *
 * <pre>
 *  writers ─(CommitListener, after commit)─► Validator.pending: latest change per table and key
 *     every validate-interval: batches of batch-query-size keys ─► worker-count target reads
 *        same ─► forgotten   differs ─► kept, failing since then ─► after row-error-delay ─► error row
 *     every meta-flush-interval: pending rows and counters ─► ValidatorStore (survive a restart)
 *     every check-interval: the stage jdm validation start|stop wrote ─► running or stopped
 * </pre>
 *
 * Unlike DM's, it reads no binlog of its own: it sees exactly what the writers committed, so it
 * never runs ahead of the sync. A row is compared with {@link io.jdm.common.sql.CanonicalValues}, as
 * verify compares rows.
 */
package io.jdm.sync.validator;
