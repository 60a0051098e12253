/**
 * The load unit: replays a dump directory (jdm's, Dumpling's or mydumper's layout) into the
 * target with exact resume.
 *
 * <pre>
 *  dump dir ──► DumpDirectory (filter) ──► SchemaLoader: CREATE DATABASE / TABLE IF NOT EXISTS (routed),
 *                      │   the tables on up to pool-size (at most 8) connections at once (LoadJob.inParallel)
 *                      │   (first PriorRows: a keyless target table holding rows no load of the task wrote stops it)
 *                      │
 *                      ▼ LoadPlan: files interleaved across tables, biggest table first
 *             bounded queue of files
 *          ┌───────────┼───────────┐
 *      LoadWorker  LoadWorker  LoadWorker      pool-size connections, retries (io.jdm.common.retry)
 *          │ files not begun: the next ones of the same table join them in the same take (FileQueue.nextGroup),
 *          │   BulkLoader: StatementLexer → TsvRows (INSERT rows as LOAD DATA text, streamed)
 *          │   → LOAD DATA LOCAL INFILE ; no warning, every row? ; checkpoint rows finished ; COMMIT
 *          │   anything else rolls back and the files go to FileLoader, as below
 *          │   (a table outside transactions, MyISAM, Aria, MEMORY...: never; TableEngines)
 *          │ FileLoader: StatementLexer (streaming, byte offsets; io.jdm.common.sql.SqlLexer reads the text)
 *          │   → InsertRewriter (routed table, on-duplicate, split to max_allowed_packet)
 *          │     (a SET NAMES binary file: JsonIntroducers give a MySQL JSON column's literals _utf8mb4)
 *          │   → INSERT … ; UPDATE checkpoint offset ; COMMIT   (one transaction)
 *          │   a table outside transactions (AnnouncedStatements): checkpoint "applying" ; COMMIT ; INSERT … ;
 *          │   checkpoint offset ; COMMIT, per statement (a rerun writes an applying one again over its rows)
 *          ▼
 *       target ◄── {meta-schema}.{task}_loader_checkpoint
 *                      │
 *                      ▼ after the data: statistics given back (in parallel), deferred indexes (ALTER TABLE … ADD INDEX),
 *                        views
 * </pre>
 *
 * Following a dump that is still being written ({@link io.jdm.load.LoadUnit#runFollowing}):
 *
 * <pre>
 *  DumpFeed ──► DumpFollower: table schema file → CREATE (routed) on one of up to 4 connections of its own;
 *                      │     data file → held until its table exists → checkpoint row
 *                      │
 *                      ▼ ArrivingFiles: LoadPlan's order among the files that have arrived; for LOAD DATA
 *                        a table's files wait for its last one (tableWritten), unless the dump waits,
 *                        and go as one group from its first file; none goes while a table is being
 *                        created where the target answers within 1 ms and is not TiDB
 *          pool-size LoadWorkers, as above ──► each finished file lets the dump write one more
 *                      │
 *                      ▼ dump complete (metadata): the complete directory as above, whose files are
 *                        finished by then, then deferred indexes and views
 * </pre>
 *
 * Every connection writes in the source's sql_mode made fit for replay ({@code LoadSqlMode}):
 * strict where the source was, so the rows load as the source's sessions stored them; a data
 * file's own {@code SET sql_mode} holds for that file only.
 *
 * The public surface is {@link io.jdm.load.LoadUnit}, {@link io.jdm.load.LoadConfig},
 * {@link io.jdm.load.LoadResult}, {@link io.jdm.load.LoadMetrics},
 * {@link io.jdm.load.LoadFootprint} (what a source's load has written, undone when its dump is taken again) and
 * {@link io.jdm.load.PriorRows} (rows a target table holds that no load of the task wrote, which {@code jdm check}
 * asks about too);
 * the config takes the task file's own {@link io.jdm.common.config.OnDuplicate}.
 */
package io.jdm.load;
