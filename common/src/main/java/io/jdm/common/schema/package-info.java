/**
 * The schema model every unit shares: a table's columns and keys as information_schema describes
 * them. Dump plans chunks on its keys, sync maps binlog row images onto its columns, verify
 * compares by its primary key.
 */
package io.jdm.common.schema;
