/**
 * The sync unit: replicates row changes from a MySQL/MariaDB binlog to a MySQL-compatible target.
 *
 * <pre>
 *  source binlog
 *      │  BinaryLogClient (one thread; GTID or file/pos; heartbeat; checksum detected),
 *      │  reopened from the last transaction boundary on the one retry policy
 *      ▼
 *  reader ── EnumMap of per-event handlers ── converter (binlog value → canonical value)
 *      │  RowChange / DdlChange, each with its ChangePos
 *      ▼
 *  ring (RingPipeline: Disruptor, single producer, queue-size slots, halting exception handler)
 *      │
 *      ▼
 *  causality ── keys (PK + NOT NULL UKs, old and new image) → route = hash(first key) % N
 *      │        skip if an earlier run applied it; drain if another writer holds a key uncommitted
 *      ▼
 *  writer 0 … writer N-1 ── batch ≤ batch rows ─ compact ─ multi-row SQL (ValueEncoder)
 *      │                     + own checkpoint row, in ONE target transaction
 *      ▼
 *  target  +  {meta-schema}.{task}_syncer_checkpoint
 *      ▲
 *  GlobalCheckpoint ── at start: where to read from, the generation, what counts as applied;
 *                      then the lowest writer position as the global row, every flush interval
 * </pre>
 *
 * {@link io.jdm.sync.SyncUnit} runs the unit's life around this (start, pause, resume, stop, halt
 * on the first failure, kept by {@code Termination}); {@code CatchUp} answers "is what was read
 * committed" by sleeping until a writer commits ({@link io.jdm.sync.ring.WriterProgress}), and
 * {@code SafeMode} is the one place that decides whether writers replay idempotently.
 *
 * <h2>Positions: never lose, never duplicate</h2>
 * Every change carries a {@link io.jdm.sync.ring.ChangePos}: (binlog file, start of its
 * transaction, ordinal of its rows event inside the transaction, row index in the event), totally
 * ordered and the same every time the transaction is read again (MariaDB leaves the end position of
 * events inside a transaction at 0, so byte offsets of inner events cannot serve), plus the GTID set
 * before the transaction, so the stream can be reopened at the transaction to read it again. Each writer sees every slot in ring
 * (= binlog) order and commits its batch together with the position of the last slot it has seen.
 * So after any crash, for every writer {@code w}: the changes routed to {@code w} at or before its
 * stored position are in the target and none after it. A restart reads from the start of the
 * transaction of the lowest stored position and gives each change to causality, which drops it if
 * its writer's stored position is at or past it. The route is a pure function of the change (the
 * hash of its first key), so a replayed change meets the same writer, and tables without a key are
 * as safe as the rest. A batch TiDB refuses as too large (8004, 8025) is committed in halves,
 * each with the position of its own last change: every change of the writer up to it is then in
 * the target and none after it, so the rule holds after each half. Causality only decides when to drain: a change waits until every change
 * sharing one of its keys on another writer is committed, so a committed change never depends on
 * one that was not. A different worker-count starts a new generation of rows; the old generation
 * still answers "already applied?" (with the old count) until every new writer is past it.
 *
 * <h2>Idle writers move forward</h2>
 * Rows are routed by key, so with a few hot keys most writers receive nothing for a long time. A
 * writer whose batch is empty has committed every change routed to it up to the last slot it has
 * seen (slots arrive in binlog order and it commits before it passes a batch end), so storing that
 * slot's position alone, in a transaction of its own, keeps the rule above true. It does so once per
 * checkpoint interval: at a batch end, or when the ring has been quiet that long (the wait strategy
 * times out and the Disruptor calls {@code onTimeout}), and once more on a clean stop after the last
 * slot. A DDL moves every writer's row to it. When no selected table changes at all, the reader
 * still puts a transaction boundary into the ring now and then (after a commit or a binlog rotation,
 * at most once a second, and the last one passed at the next heartbeat and at a clean stop, so a
 * caught-up task restarts after its last transaction and, by GTID, needs none of the binlogs it
 * applied, as a native replica): a slot with no change, position (file, next transaction, -1, -1, GTID set
 * after), meaning "everything before this was handed on, nothing after it". No change is routed to
 * it, so every writer may take it as its seen position under the same rule, and a restart from it
 * reads the next transaction whole. So the lowest stored position, where a restart reads from,
 * trails the oldest change not yet applied by at most about one interval, and the source may purge
 * older binlogs as it would for DM's global checkpoint. After a failure a writer stores nothing more.
 * After a lost connection the reader reopens at the current transaction's start and drops what it
 * had already handed on; a writer that lost its connection reads its own row to learn whether the
 * last commit went through.
 *
 * <h2>DDL, filters and routes</h2>
 * DDL runs behind a barrier: every writer commits what it holds and stores its position, writer 0
 * runs the statement (rewritten through the routes) in the session it ran in on the source
 * (sql_mode, charsets, time zone, timestamp, …, from the QUERY event; its own session is back right
 * after) and moves every writer's row to the DDL's position. A DDL commits on its own, so it
 * cannot share a transaction with that move: before it runs, a marker (position, statement, the
 * touched target tables' SHOW CREATE TABLE or absence) is committed in
 * {meta-schema}.{task}_syncer_ddl, and the move deletes it. A start that finds a marker reads from
 * the marked DDL (everything before it is committed, so no earlier row is decoded with a
 * definition the DDL may already have changed) and runs it only if those tables still equal the
 * marker; otherwise it only moves the rows. Comparing with the target's own state before the
 * statement needs no model of the statement and no name normalising: nothing but sync changes
 * those tables, and every writer waits at the barrier. The target refusing it stops the
 * unit with the statement and the error, and the checkpoint right before it, so that on the next
 * start a binlog operator ({@code io.jdm.sync.operator}) can skip exactly that statement or run
 * others in its place, or a filter rule (action Ignore) can skip it and every one like it. The
 * reader keeps the schema of every table at its own position (see {@code io.jdm.sync.reader}),
 * applies the {@link io.jdm.sync.reader.EventDecider} to row events and DDL, and follows gh-ost and
 * pt-online-schema-change shadow tables as DM does (DM's {@code shadow-table-rules} and
 * {@code trash-table-rules}).
 *
 * <h2>Online DDL outlives the process</h2>
 * A ghost table's ALTER is not applied when it is read but at the migration's cut-over, hours later,
 * so it is kept in {meta-schema}.{task}_onlineddl with the session and default database it ran in.
 * Its row is written by a barrier with no statement, in the transaction that moves every writer's
 * checkpoint past the ALTER; at the cut-over each recorded statement is an ordinary DDL (its marker,
 * its checkpoint move) and one more barrier deletes the rows with the checkpoint move past the
 * rename (a DROP of the ghost table deletes them the same way). So the table always holds the
 * statements recorded before the checkpoint and not yet applied, which is what a start reads back
 * for the reader it starts at the checkpoint.
 *
 * <h2>Meta tables</h2>
 * In {meta-schema} on the target, each with one owner class: {task}_syncer_checkpoint
 * ({@code CheckpointStore}), {task}_syncer_ddl ({@code DdlMarkers}), {task}_onlineddl
 * ({@code OnlineDdlStore}), {task}_syncer_operator ({@code OperatorStore}), {task}_syncer_hold
 * ({@code SyncHoldTable}, the verify snapshot's hold) and the shard tables {task}_shard_*
 * ({@code ShardStore}).
 */
package io.jdm.sync;
