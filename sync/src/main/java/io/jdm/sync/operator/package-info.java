/**
 * Binlog operators: what an operator tells sync to do, by hand, with one statement of the source's
 * binlog, as DM's {@code dmctl binlog skip|replace} (formerly {@code handle-error}) does.
 *
 * <pre>
 *  jdm binlog skip|replace TASK.yaml ─► {meta}.{task}_syncer_operator (target), one row per statement,
 *                                       keyed by (source, binlog file, position); pending
 *  next start of the sync ─► Operators (read once) ─► reader: the QUERY event at that position
 *        ─► skip: a barrier step, no statement   replace: the operator's statements, in the source session
 *        ─► writer 0 behind the barrier: the checkpoints move to the event and the operator is marked
 *           applied, in ONE target transaction
 * </pre>
 *
 * An operator names a position, not a text: a later statement with the same text is applied as
 * usual. It is applied once: the transaction that marks it applied is the one that moves every
 * writer's checkpoint past its event, so a restart either reads the event again with the operator
 * still pending, or finds the checkpoint past it. An applied operator still shapes its event when
 * a restart reads it again (a restart from that very checkpoint does), so the changes made from it
 * have the same positions and are dropped as applied.
 */
package io.jdm.sync.operator;
