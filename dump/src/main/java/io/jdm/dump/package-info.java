/**
 * The dump unit: a consistent, parallel, chunked export in the Dumpling/mydumper directory layout.
 *
 * <pre>
 *  DumpUnit.run()
 *    SnapshotOpener ── FTWRL / LOCK TABLES / tidb_snapshot ─► threads+1 snapshot connections + position
 *    schema files ({db}-schema-create.sql, {db}.{tbl}-schema.sql, {db}.{view}-schema-view.sql)
 *    ChunkPlanner (key ranges, in the snapshot) ──► bounded chunk queue ──► threads × ChunkWorker
 *                                                                              │ SELECT … streamed
 *                                                                              ▼ RowLiterals: driver bytes → SQL literals (UTF-8)
 *                                                              DataFileWriter: {db}.{tbl}.{NNNNNNNNN}.sql[.gz|.zst]
 *    metadata (position) written last, atomically
 * </pre>
 *
 * Public: {@link io.jdm.dump.DumpUnit}, {@link io.jdm.dump.DumpConfig}, {@link io.jdm.dump.DumpResult},
 * {@link io.jdm.dump.DumpMetrics}; the config takes the task file's own
 * {@link io.jdm.common.config.Consistency} and {@link io.jdm.common.config.Compression}.
 */
package io.jdm.dump;
