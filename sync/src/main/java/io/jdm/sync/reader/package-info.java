/**
 * The binlog reader: one BinaryLogClient, one small handler per event type in an EnumMap, a
 * deserializer that decodes only selected tables, and one converter from binlog values to the
 * encoder's canonical values. Publishes into a {@link io.jdm.sync.reader.ChangeSink}.
 *
 * <h2>DDL and the schema at each position</h2>
 * <pre>
 *  QUERY ─► DdlParser (names located) ─► split per table ─► OnlineDdl (gh-ost / pt-osc shadows)
 *        ─► SchemaTracker.apply (scratch copies on the target) ─► EventDecider (filters)
 *        ─► DdlRoutes (rewritten names, merged shards kept) ─► DdlChange into the ring
 *  TABLE_MAP ─► TableCache ─► SchemaTracker.schema (the copy) ─► checked against the binlog types
 * </pre>
 * A rows event must be decoded with its table's columns as they were when it was written. The
 * simplest way to have that: the tracker keeps an empty copy of every selected table in a private
 * scratch schema on the target and replays each DDL on it as the reader meets it, in stream order,
 * before any later event is decoded. Each {@link io.jdm.sync.ring.RowChange} carries the table
 * version it was decoded with, so writers behind the barrier never need a model of their own. A
 * copy starts as {@code CREATE TABLE … LIKE} the routed target table, which is at the reader's
 * start position: the load left it at the dump's position, and afterwards only sync alters it,
 * behind a barrier that moves every writer's checkpoint to the DDL. Replaying on a real server
 * instead of parsing ALTER in Java means every clause the target understands is modelled right.
 * Known limits: a DDL skipped by a filter rule is still replayed on the copy (the source ran it),
 * so skipping one that changes columns leaves the target behind until it is altered by hand; a
 * crash between a DDL and the checkpoint move after it leaves the copy made from the target one
 * DDL ahead of rows read again before it (the TABLE_MAP check then stops the unit, it never
 * misaligns values).
 */
package io.jdm.sync.reader;
