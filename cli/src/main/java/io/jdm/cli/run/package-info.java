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
 */
package io.jdm.cli.run;
