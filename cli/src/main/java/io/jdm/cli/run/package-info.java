/**
 * Runs a whole task: the stages its task-mode asks for, resumable at each stage.
 *
 * <pre>
 *  task-mode full:        dump ══ load ──► done           (══ : the load follows the dump file by file)
 *  task-mode all:         dump ══ load ──► sync (from the dump's position) ──► … until stopped
 *  task-mode incremental:                   sync (from meta or its checkpoint) ──► … until stopped
 *
 *  {meta-schema}.{task}_stage (in the target), one row per source:
 *     dump       → a restart dumps again (an incomplete dump directory is discarded by the dump unit)
 *     dump_load  → dump and load ran at once. metadata present: the dump is complete, a restart loads,
 *                  resuming from the loader checkpoint. No metadata: the snapshot is gone, so a restart
 *                  empties the tables the load wrote, clears its checkpoint and dumps and loads again;
 *                  a lock-free dump has no snapshot to lose: it resumes from its unfinished chunks and
 *                  what was loaded from the finished ones stays
 *     load       → the dump is complete: a restart loads, resuming from the loader checkpoint
 *     sync       → the load is complete: a restart syncs from the sync checkpoint, else the recorded position
 * </pre>
 *
 * <p>After a lock-free dump the recorded position is its lowest LOW, and the sync writes in safe mode
 * until its stream passes the dump's highest HIGH ({@code jdm-chunks}; see the dump package).
 *
 * <p>While dump and load overlap, the dump waits whenever 4 × (2 × pool-size + threads) of its data files are
 * not loaded yet; either unit's failure stops the other, and {@code /status} shows the unit as Load
 * with the dump's numbers under {@code jdm.dump}.
 *
 * Before any of it, the process takes the lease of every source it runs (every source of the task,
 * or those {@code --source-id} names: a task can be run by one process per source)
 * ({@code {meta-schema}.{task}_owner}, see {@link io.jdm.common.lease.TaskLease}): a second process on
 * the same task and source waits for it, saying once who owns it (or, with {@code --lease-wait 0},
 * refuses at once), takes at once a lease whose owner on this host has died, and an owner that loses
 * its lease aborts its units before applying more. {@code jdm load} takes the same lease; verify does not (it writes
 * no task data and coordinates through its own hold table).
 *
 * <p>A task can be paused ({@code jdm pause-task}) in any unit, as in DM. While it syncs, every sync
 * unit's reader stops at a transaction boundary and its writers commit what they hold; resume goes on
 * from there. While a source dumps or loads, the running unit(s) end as at a stop (the load's workers
 * after their current statement, committed with its offset; the dump without {@code metadata}) and
 * the source waits in a {@code PauseGate}; resume runs its stages again from the stage
 * table, as a restart does: the load from its checkpoint, an incomplete dump from scratch (undoing what
 * the load wrote from it), or, lock-free, from its unfinished chunks. Status shows {@code Paused} with the unit that resume runs again. A paused
 * task is not remembered across a restart: the next run goes on at once.
 */
package io.jdm.cli.run;
