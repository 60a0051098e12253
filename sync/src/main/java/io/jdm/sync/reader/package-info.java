/**
 * The binlog reader: one BinaryLogClient, one small handler per event type in an EnumMap, a
 * deserializer that decodes only selected tables, and one converter from binlog values to the
 * encoder's canonical values. Publishes into a {@link io.jdm.sync.reader.ChangeSink}.
 *
 * <pre>
 *  BinlogReader ── the reader thread: start, stop, how far, how many reconnects
 *   └ StreamSupervisor ── reopens the stream at ReaderContext.resumePoint() on the one retry
 *     │                   policy (Retries; ErrorClassifier decides; 1236 says how to start over)
 *     └ BinlogConnection ── one BinaryLogClient as a replica: server id, file/pos or GTID set,
 *       │                   heartbeat, read timeout, TLS, Deserializers
 *       └ EventDispatcher ── ReadGate (held: closes the connection) ─► handler per event type
 *                            ─► ChangeSink; a transaction boundary now and then
 * </pre>
 * A lost connection is reopened at the start of the open transaction (or after the last event),
 * and the handlers drop every change at or before the last one handed on, so a reconnect loses
 * and doubles nothing.
 *
 * <h2>MySQL 8 compressed transactions and partial JSON</h2>
 * With binlog_transaction_compression=ON a transaction's events (BEGIN, TABLE_MAP, rows, XID)
 * arrive zstd-compressed in one TRANSACTION_PAYLOAD event after its GTID event. They are decoded
 * by the same deserializer as uncompressed events and handed to the same handlers, all at the
 * payload's start (inner events have no position of their own): the transaction starts at its
 * GTID event, or at the payload without GTIDs, and its rows are ordered by their ordinal in it as
 * any transaction's are, so a restart reads the whole payload again and drops what was applied.
 * PARTIAL_UPDATE_ROWS (binlog_row_value_options=PARTIAL_JSON) cannot be decoded: one on a
 * selected table stops the reader, which {@code jdm check} refuses beforehand.
 *
 * <h2>MySQL's binary JSON</h2>
 * A JSON column (binlog type 245) is read by {@link io.jdm.sync.reader.JsonBinaryText} into the
 * text MySQL prints for it and the values that text cannot carry (DECIMAL, DATE, TIME, DATETIME,
 * integers whose signedness the parser would change, doubles it would round to a neighbour,
 * VARCHAR opaques), each with the SQL
 * expression that rebuilds it: a JSON column on the target gets {@code JSON_SET(text, path, expr,
 * …)}, and stores what the source stored. A TIMESTAMP or another opaque binary inside a document
 * has no such expression and stops the reader naming its path. The decoder follows the binlog's
 * type, not the copy's: a MariaDB target's copy of a JSON column is LONGTEXT, which takes the
 * text as the source's version prints it (5.7 prints integral doubles without {@code .0}).
 *
 * <h2>XA transactions</h2>
 * MySQL and MariaDB 10.5+ log an XA transaction's prepared part (up to XA_PREPARE) and its outcome
 * ({@code XA COMMIT xid} or {@code XA ROLLBACK xid}) as two transactions with a GTID each, other
 * transactions in between. The prepared part's changes are held in memory ({@code XaTransactions},
 * bounded: a larger one stops the unit) and handed on at the outcome's position on COMMIT, or
 * dropped on ROLLBACK. On MySQL, until its outcome the prepared part's GTID is held out of the GTID
 * set every position carries, so a restart by GTID (enable-gtid) reads it again; a MariaDB GTID state
 * cannot leave it out. An outcome whose prepared part was not read (before the task's start, or
 * passed by a restart) stops the unit.
 *
 * <h2>DDL and the schema at each position</h2>
 * <pre>
 *  QUERY ─► status variables ─► SourceSession (sql_mode, charsets, time zone, timestamp, …)
 *        ─► statement decoded from its client's charset
 *        ─► DdlParser (names located) ─► split per table ─► OnlineDdl (gh-ost / pt-osc shadows:
 *           a ghost ALTER recorded in {meta}.{task}_onlineddl, applied at the cut-over)
 *        ─► SchemaTracker.apply (scratch copies on the target, in the source session)
 *        ─► EventDecider (filters) ─► DdlRoutes (rewritten names, merged shards kept)
 *        ─► DdlChange (with its SourceSession) into the ring
 *  TABLE_MAP ─► TableCache ─► SchemaTracker.schema (the copy)
 *            ─► checked against the binlog types and CHAR/VARCHAR byte lengths (charsets)
 * </pre>
 * A rows event must be decoded with its table's columns as they were when it was written,
 * charsets included. The simplest way to have that: the tracker keeps an empty copy of every
 * selected table on the target, in a private scratch schema per source database, and replays
 * each DDL on it as the reader meets it, in stream order and in the session the statement ran in
 * on the source, before any later event is decoded. Each {@link io.jdm.sync.ring.RowChange}
 * carries the table version it was decoded with, so writers behind the barrier never need a model
 * of their own. Replaying on a real server instead of parsing ALTER in Java means every clause the
 * target understands is modelled right.
 *
 * <p>Why the copies are right at the reader's position:
 * <ul>
 * <li>A copy starts as {@code CREATE TABLE … LIKE} the routed target table, which is at the
 * reader's start position: the load left it at the dump's position, and afterwards only sync
 * alters it, behind a barrier that moves every writer's checkpoint to the DDL. {@code LIKE} keeps
 * every column's charset and the table's default.
 * <li>Where the target table is not the source table's twin (shards of other charsets merged
 * into one table, a target table made by hand), the first TABLE_MAP says so: a CHAR/VARCHAR
 * column's byte length there is its length times its charset's bytes per character on the
 * source, and with binlog_row_metadata MINIMAL or FULL every text column's collation is there,
 * TEXT included (without it a TEXT column's charset is not checked). A copy that disagrees is replaced by the source's current definition, which is right
 * unless the table changed after the reader's position (then the check fails again and the unit
 * stops rather than misdecode).
 * <li>A table or column declared without a charset takes its database's default. Each scratch
 * schema is created with its source database's default charset and collation: from the source's
 * SCHEMATA at start, or from the stream's CREATE DATABASE replayed in the source session (a bare
 * one takes the session's collation_server), and follows the stream's ALTER DATABASE. Replaying
 * with the source's sql_mode and charsets reads quotes, backslashes and accents as the source did.
 * </ul>
 * A restart after a crash between a DDL and the checkpoint move reads from that DDL (see the
 * writers' DDL marker), so no row before it is decoded with the copy made from the target.
 *
 * <p>Known limits: a DDL skipped by a filter rule or a binlog operator (or replaced by one) is still
 * replayed on the copy (the source ran it), so skipping one that changes columns leaves the target
 * behind until it is altered by hand; a
 * database's defaults at start come from the source as it is now, so an ALTER DATABASE …
 * CHARACTER SET between the start position and now gives tables created in that window the newer
 * default; ALTER DATABASE in the stream is replayed on the scratch schemas but not on the target,
 * whose databases keep their own defaults.
 */
package io.jdm.sync.reader;
