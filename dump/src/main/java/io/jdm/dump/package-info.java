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
 *                                                                              ▼ RowLiterals: driver bytes → SQL literals (UTF-8)
 *                                                              DataFileWriter: {db}.{tbl}.{NNNNNNNNN}.sql[.gz|.zst]
 *                                                     a finished chunk's files ─► DumpListener (may wait)
 *    metadata (position) written last, atomically ─► DumpListener.completed
 * </pre>
 *
 * The {@link io.jdm.common.dumpdir.DumpListener} lets a load follow the dump file by file ({@code
 * jdm run}); a listener that waits holds back only the worker that announces, never a snapshot
 * connection, and the directory written is the same with or without one.
 *
 * Public: {@link io.jdm.dump.DumpUnit}, {@link io.jdm.dump.DumpConfig}, {@link io.jdm.dump.DumpResult},
 * {@link io.jdm.dump.DumpMetrics}; the config takes the task file's own
 * {@link io.jdm.common.config.Consistency} and {@link io.jdm.common.config.Compression}.
 */
package io.jdm.dump;
