/**
 * The dump directory: the one format that passes from the dump unit to the load unit (and to and
 * from mydumper, myloader, Dumpling and DM's loader). File names follow their layout:
 *
 * <pre>
 *   metadata                         written last, atomically: the snapshot's binlog position
 *   jdm-files                        written just before it by jdm: crc32c, size and rows of each data file
 *   jdm-chunk-plan                   lock-free dumps: every table's chunks, written before the first is read
 *   jdm-chunks                       lock-free dumps: each finished chunk, its files and binlog LOW/HIGH
 *   {db}-schema-create.sql           CREATE DATABASE
 *   {db}.{tbl}-schema.sql            CREATE TABLE; of a view, a placeholder table with its columns
 *   {db}.{tbl}-schema-view.sql       drops the placeholder, CREATE VIEW
 *   {db}.{tbl}.{000000001}.sql[.gz|.zst]   INSERT statements, one per line group, each ending ";\n"
 * </pre>
 *
 * A running dump may announce its files to a {@link io.jdm.common.dumpdir.DumpListener} as it
 * finishes them; {@link io.jdm.common.dumpdir.DumpFeed} is the one that hands them to a load
 * following the dump, holding the dump back when the load falls behind. The directory written is
 * the same either way.
 *
 * <p>{@link io.jdm.common.dumpdir.ChunkPlan} and {@link io.jdm.common.dumpdir.ChunkJournal} are
 * jdm's own: their names hold no {@code .sql}, so myloader, TiDB Lightning and DM's loader pass
 * them by, as jdm's load does ({@link io.jdm.common.dumpdir.DumpFileNames#parse}).
 *
 * <p>Schema files begin with {@code SET NAMES utf8mb4} in a version comment (Dumpling's and
 * mydumper's with {@code SET NAMES binary}, which the load honours); names are escaped as Dumpling
 * escapes them ({@link DumpFileNames}).
 */
package io.jdm.common.dumpdir;
