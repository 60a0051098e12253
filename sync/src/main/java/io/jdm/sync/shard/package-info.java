/**
 * DM's shard modes: DDL of tables that routes merge into one target table (a shard group), on one
 * source or several, run by one process or one per source.
 *
 * <ul>
 * <li>{@link io.jdm.sync.shard.ShardCoordinator}: one source's part, called by the reader (a group DDL
 *     becomes a barrier step; a waiting shard's rows go to its spool; drains at transaction
 *     boundaries) and by its poller (locks ready to run, status).</li>
 * <li>{@link io.jdm.sync.shard.ShardStore}: the four coordination tables in the target's meta schema,
 *     the only state the processes of a task share.</li>
 * <li>{@code Spools}: pessimistic mode's per-shard tables of last row images, drained in the
 *     checkpoint's transaction. {@code OptimisticShards} and {@link io.jdm.sync.shard.TableShape}:
 *     optimistic mode's joined table, checked behind the shard's barrier under a named lock.</li>
 * <li>{@link io.jdm.sync.shard.GroupDdl}: a group DDL run on the target in its source session.</li>
 * </ul>
 */
package io.jdm.sync.shard;
