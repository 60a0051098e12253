/**
 * Runs a whole task: the stages its task-mode asks for, resumable at each stage.
 *
 * <pre>
 *  task-mode full:        dump ──► load ──► done
 *  task-mode all:         dump ──► load ──► sync (from the dump's position) ──► … until stopped
 *  task-mode incremental:                   sync (from meta or its checkpoint) ──► … until stopped
 *
 *  {meta-schema}.{task}_stage (in the target), one row per source:
 *     dump  → a restart dumps again (an incomplete dump directory is discarded by the dump unit)
 *     load  → the dump is complete: a restart loads, resuming from the loader checkpoint
 *     sync  → the load is complete: a restart syncs from the sync checkpoint, else the recorded position
 * </pre>
 *
 * Before any of it, the process takes the lease of every source of the task
 * ({@code {meta-schema}.{task}_owner}, see {@link io.jdm.common.lease.TaskLease}): a second process on
 * the same task and source refuses with the owner's name, and an owner that loses its lease aborts
 * its units before applying more. {@code jdm load} takes the same lease; verify does not (it writes
 * no task data and coordinates through its own hold table).
 *
 * <p>While it syncs, a task can be paused ({@code jdm pause-task}): every sync unit's reader stops
 * at a transaction boundary and its writers commit what they hold; resume goes on from there. Dump
 * and load have no such boundary to hold at, so a pause is refused while they run; stop-task and a
 * new run resume them exactly. A paused task is not remembered across a restart.
 */
package io.jdm.cli.run;
