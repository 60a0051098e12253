/**
 * The dump directory: the one format that passes from the dump unit to the load unit (and to and
 * from mydumper, myloader, Dumpling and DM's loader). File names follow their layout:
 *
 * <pre>
 *   metadata                         written last, atomically: the snapshot's binlog position
 *   jdm-files                        written just before it by jdm: crc32c, size and rows of each data file
 *   {db}-schema-create.sql           CREATE DATABASE
 *   {db}.{tbl}-schema.sql            CREATE TABLE
 *   {db}.{tbl}-schema-view.sql       CREATE VIEW
 *   {db}.{tbl}.{000000001}.sql[.gz|.zst]   INSERT statements, one per line group, each ending ";\n"
 * </pre>
 */
package io.jdm.common.dumpdir;
