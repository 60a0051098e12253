/**
 * The load unit: replays a dump directory (jdm's, Dumpling's or mydumper's layout) into the
 * target with exact resume.
 *
 * <pre>
 *  dump dir ──► DumpDirectory (filter) ──► SchemaLoader: CREATE DATABASE / TABLE IF NOT EXISTS (routed)
 *                      │
 *                      ▼ LoadPlan: files interleaved across tables, biggest table first
 *             bounded queue of files
 *          ┌───────────┼───────────┐
 *      LoadWorker  LoadWorker  LoadWorker      pool-size connections, retries (io.jdm.common.retry)
 *          │ FileLoader: StatementLexer (streaming, byte offsets)
 *          │   → InsertRewriter (routed table, on-duplicate, split to max_allowed_packet)
 *          │   → INSERT … ; UPDATE checkpoint offset ; COMMIT   (one transaction)
 *          ▼
 *       target ◄── {meta-schema}.{task}_loader_checkpoint
 *                      │
 *                      ▼ after the data: deferred indexes (ALTER TABLE … ADD INDEX), views
 * </pre>
 *
 * The public surface is {@link io.jdm.load.LoadUnit}, {@link io.jdm.load.LoadConfig},
 * {@link io.jdm.load.LoadResult} and {@link io.jdm.load.LoadMetrics}; the config takes the task file's
 * own {@link io.jdm.common.config.OnDuplicate}.
 */
package io.jdm.load;
