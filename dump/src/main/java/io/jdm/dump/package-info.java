/**
 * The dump unit: a consistent, parallel, chunked export in the Dumpling/mydumper directory layout.
 *
 * <pre>
 *  DumpUnit.run()
 *    SnapshotOpener ── FTWRL / LOCK TABLES / tidb_snapshot ─► threads+1 snapshot connections + position
 *    schema files ({db}-schema-create.sql, {db}.{tbl}-schema.sql, {db}.{view}-schema-view.sql)
 *                                                          (each database's and table's) ─► DumpListener
 *    ChunkPlanner (key ranges, in the snapshot) ──► bounded chunk queue ──► threads × ChunkWorker
 *                                                                              │ SELECT … streamed
 *                                    WireInput (under the driver) ─► PacketRows: a row packet parsed in place
 *                                                                              ▼ RowLiterals: driver bytes → SQL literals (UTF-8)
 *                                                              DataFileWriter: {db}.{tbl}.{NNNNNNNNN}.sql[.gz|.zst]
 *                                                     a finished chunk's files ─► DumpListener (may wait)
 *    metadata (position) written last, atomically ─► DumpListener.completed
 * </pre>
 *
 * <h2>consistency: lock-free</h2>
 *
 * <pre>
 *  DumpUnit.run()  (no FTWRL, no LOCK TABLES, no RELOAD; no transaction longer than one chunk)
 *    LockFreeRun: jdm-chunk-plan present, no metadata? ── yes ─► resume: keep the chunks in jdm-chunks,
 *         │ no                                                  delete every other data file
 *         ▼
 *    plan every table (key ranges open at both ends) ─► refuse keyless tables ─► jdm-chunk-plan (fsynced)
 *    threads × ChunkWorker, per chunk:
 *        LOW ─► START TRANSACTION WITH CONSISTENT SNAPSHOT ─► HIGH ─► SELECT … ─► COMMIT
 *        files closed ─► line in jdm-chunks {table, chunk, files, LOW, HIGH}, fsynced ─► DumpListener
 *    columns read again (SchemaFingerprint): a table altered meanwhile stops the dump
 *    metadata (the lowest LOW; with no table, the position read at the start) written last
 * </pre>
 *
 * <p>Why the target converges. Sync starts at the lowest LOW and writes in safe mode (REPLACE for
 * inserts and updates, DELETE then REPLACE for a key change, DELETE by key) every change whose
 * transaction starts before the highest HIGH; after that it writes exactly once. Take any row key
 * K. Its chunk (the one whose key range holds K) was read in a snapshot S with LOW ≤ S ≤ HIGH: every
 * transaction missing from S is at or after LOW, hence replayed. If no replayed event touches K,
 * nothing changed K since S, and the chunk's image is K's state. Otherwise the last replayed event
 * on K leaves K as the source has it, since each safe-mode write is idempotent and sets the row to
 * the event's after image (or removes it) whatever the target held: replaying events older than
 * the image only rewinds K until the later ones are replayed. A REPLACE that removes a row holding
 * the same unique value (a unique-key swap) removes only a row whose later events are replayed as
 * well, since the source held both values on two rows at no point. The same holds for rows that
 * move between chunks by a key change: both images, neither, or one; the event's DELETE and
 * REPLACE settle it. At the highest HIGH the target equals the source as of HIGH, so the exactly
 * once path can take over. The load writes the images with on-duplicate replace ({@code error}
 * reads as replace for a lock-free dump): two chunks read at different moments may hold one
 * unique value on two rows until the sync replays the swap between them.
 *
 * <p>Positions. On MariaDB, LOW = HIGH = the snapshot's own position
 * ({@code binlog_snapshot_file/position}); on MySQL, {@code SHOW MASTER STATUS} before and after
 * the snapshot opens (REPLICATION CLIENT only); see {@link io.jdm.dump.ChunkWindow} for MySQL's
 * remaining window. GTID sets are recorded with them.
 *
 * <p>Limits. A table without a primary or NOT NULL unique key cannot be replayed by key, so a
 * lock-free dump refuses it, naming every such table ({@code jdm check} does too); dump those with
 * {@code flush} or {@code lock}. A table whose columns change during the dump stops it: its chunks
 * could hold rows of two shapes. {@code auto} takes {@code flush} and goes lock-free, saying so in
 * one line, where FTWRL is refused; to LOCK TABLES instead, naming them, when a selected table has
 * no key.
 *
 * <p>Resume. The plan is on disk before the first chunk is read and a chunk is in the journal only
 * once its files are closed, so a dump killed at any point resumes with exactly the chunks not in
 * the journal, under the same plan; their half-written files are deleted first, and no chunk is
 * written twice. A rerun with other {@code rows}, {@code where} or {@code compress} refuses to
 * resume. A {@code flush}, {@code lock} or {@code snapshot} dump cannot resume (its snapshot closed
 * with its process): a rerun says so in one line and starts over.
 *
 * <p>The {@link io.jdm.common.dumpdir.DumpListener} lets a load follow the dump file by file ({@code
 * jdm run}); a listener that waits holds back only the worker that announces, never a snapshot
 * connection, and the directory written is the same with or without one.
 *
 * Public: {@link io.jdm.dump.DumpUnit}, {@link io.jdm.dump.DumpConfig}, {@link io.jdm.dump.DumpResult},
 * {@link io.jdm.dump.DumpMetrics}; the config takes the task file's own
 * {@link io.jdm.common.config.Consistency} and {@link io.jdm.common.config.Compression}.
 */
package io.jdm.dump;
