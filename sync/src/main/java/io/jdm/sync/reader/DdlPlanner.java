package io.jdm.sync.reader;

import io.jdm.common.config.Action;
import io.jdm.common.config.EventType;
import io.jdm.common.error.FatalException;
import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.TableName;
import io.jdm.sync.operator.BinlogOperator;
import io.jdm.sync.operator.Operators;
import io.jdm.sync.ring.BarrierStep;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.SourceSession;
import io.jdm.sync.shard.ShardCoordinator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one DDL statement from the binlog into what the target runs, in this order:
 *
 * <pre>
 *  statement ─► parse (names located) ─► split (one table each) ─► online DDL (shadow tables;
 *            a ghost ALTER becomes a barrier step that keeps it for the cut-over)
 *            ─► selected? ─► schema tracker replays it (always: rows after it are decoded with it)
 *            ─► filters: Do / Ignore (skipped, positions still advance) / Error (task stops);
 *               an ALTER TABLE clause by clause, the skipped clauses cut out of it
 *            ─► routes (rewritten names; merged shards kept) ─► DdlChange, one per statement
 *            ─► shard-mode pessimistic: a group DDL waits for every shard (see ShardCoordinator)
 * </pre>
 *
 * A statement a binlog operator names ({@code jdm binlog skip|replace}) is still followed by the
 * schema tracker, and instead of the rest the target gets the operator's statements, or none.
 */
final class DdlPlanner {
    private static final Logger LOG = LoggerFactory.getLogger(DdlPlanner.class);

    private final SchemaTracker tracker;
    private final OnlineDdl online;
    private final DdlRoutes routes;
    private final EventDecider decider;
    private final BiPredicate<String, String> selected;
    private final UnaryOperator<TableName> router;
    /** Pessimistic shard mode: group DDLs wait for every shard; null without it. */
    private final ShardCoordinator shards;
    private final DdlGrammar grammar;
    private final Operators operators;

    /**
     * @param grammar the source's grammar (see {@link DdlParser})
     * @param operators the binlog operators of the source, for the steps that mark them applied
     */
    DdlPlanner(SchemaTracker tracker, OnlineDdl online, EventDecider decider, BiPredicate<String, String> selected,
               UnaryOperator<TableName> router, ShardCoordinator shards, DdlGrammar grammar, Operators operators) {
        this.operators = operators;
        this.shards = shards;
        this.grammar = grammar;
        this.tracker = tracker;
        this.online = online;
        this.routes = new DdlRoutes(router, tracker::merged);
        this.decider = decider;
        this.selected = selected;
        this.router = router;
    }

    /**
     * @param session the session the statement ran in, resolved only if a statement is kept
     * @param pos the position of the i-th statement made from this event
     * @param event {@code file:pos} of the statement's QUERY event, which a binlog operator may name
     * @param op the binlog operator at this statement, or null
     * @return the statements for the target, in order; empty when none concerns a selected table
     */
    List<DdlChange> plan(String defaultDb, String sql, Supplier<SourceSession> session, IntFunction<ChangePos> pos,
                         long eventMillis, String event, BinlogOperator op) {
        if (op != null) {
            return operated(op, defaultDb, sql, session, pos, eventMillis);
        }
        String dml = DdlParser.dmlVerb(sql, grammar);
        if (dml != null) {
            return loggedAsStatement(defaultDb, dml, sql, pos.apply(0), event);
        }
        ParsedDdl parsed;
        try {
            // the session is resolved only for a statement sync applies
            parsed = DdlParser.isDdl(sql, grammar) ? DdlParser.parse(defaultDb, sql, dialect(session), grammar) : null;
        } catch (UnreadableDdlException e) {
            return unreadable(defaultDb, sql, pos.apply(0), event, e);
        }
        // the grammar's OTHER_DDL is ALTER DATABASE: followed by the tracker, not applied on the target
        if (parsed == null || parsed.kind() == EventType.OTHER_DDL) {
            AlterDatabase alter = AlterDatabase.parse(defaultDb, sql, () -> session.get().ansiQuotes());
            if (alter != null && selected.test(alter.db(), "")) {
                // the target keeps its own database defaults; the copies follow the source's
                tracker.alterDatabase(alter, sql, session.get(), String.valueOf(pos.apply(0).restartPoint()));
            }
            LOG.debug("sync: statement not applied (not a DDL sync applies): {}", sql);
            return List.of();
        }
        List<DdlChange> out = new ArrayList<>();
        for (ParsedDdl one : parsed.split()) {
            String unfaithful = online == null ? null : online.unfaithful(one, event);
            if (unfaithful != null) {
                throw new FatalException("sync: online DDL at " + pos.apply(out.size()).restartPoint() + " ("
                        + UnreadableDdlException.shorten(sql) + "): " + unfaithful + "; then restart the task");
            }
            List<OnlineDdl.Part> parts = online == null ? List.of(OnlineDdl.Part.same(one))
                    : online.translate(one, pos.apply(out.size()), defaultDb, session);
            for (OnlineDdl.Part part : parts) {
                if (part.ddl() == null) {
                    out.add(new DdlChange(defaultDb, "", sql, List.of(part.table()), List.of(), null, "",
                            pos.apply(out.size()), eventMillis, null, false, part.step()));
                } else if (selected(part.ddl())) {
                    Supplier<SourceSession> own = part.session() == null ? session : part::session;
                    planTable(part.ddl(), part.schema() == null ? defaultDb : part.schema(), own,
                            pos.apply(out.size()), eventMillis, out);
                }
            }
        }
        return out;
    }

    /** One table's statement (of a selected table): followed by the tracker, filtered, routed, added to {@code out}. */
    private void planTable(ParsedDdl d, String defaultDb, Supplier<SourceSession> session, ChangePos at,
                           long eventMillis, List<DdlChange> out) {
        ColumnChanges.Shape before = hasColumnChange(d) ? shapeOrNull(d.primary()) : null;
        tracker.apply(d, session.get(), String.valueOf(at.restartPoint()));
        ParsedDdl k = filtered(d, defaultDb, before, at);
        if (k == null) {
            return;
        }
        TableName p = k.primary();
        String target = routes.targetSql(k, at);
        if (target == null) {
            return;
        }
        String targetSchema = k.isDatabase() ? null : router.apply(p).schema();
        String options = k.isDatabase() ? "" : tracker.databaseOptions(p.schema());
        DdlChange change = new DdlChange(defaultDb, target, k.sql(), k.touched(),
                k.touched().stream().map(router).distinct().toList(), targetSchema, options, at,
                eventMillis, session.get(), k.kind() == EventType.CREATE_TABLE);
        if (shards != null && !k.isDatabase() && ShardCoordinator.groupDdl(k.kind(), k.renamedTo() != null)) {
            change = change.withStep(shards.arrive(p, router.apply(p), target, k.sql(), at,
                    session.get(), tracker.copyOf(p), t -> k.rewrite(n -> n.equals(p) ? t : router.apply(n))));
        }
        out.add(change);
    }

    /**
     * The statement an operator names: the tracker still follows it (the source ran it; later rows are
     * decoded with it), the target gets the operator's statements in its place, run in its session
     * and its table's target database, or none; the last change carries the step that marks the
     * operator applied with the checkpoint move.
     */
    private List<DdlChange> operated(BinlogOperator op, String defaultDb, String sql, Supplier<SourceSession> session,
                                     IntFunction<ChangePos> pos, long eventMillis) {
        if (op.kind() == BinlogOperator.Kind.INJECT) {
            return injected(op, defaultDb, sql, session, pos, eventMillis);
        }
        List<ParsedDdl> parts = new ArrayList<>();
        BarrierStep onlineSteps = null; // what online DDL keeps in the meta schema moves with the operator's step
        if (DdlParser.dmlVerb(sql, grammar) == null && DdlParser.isDdl(sql, grammar)) {
            try {
                ParsedDdl parsed = DdlParser.parse(defaultDb, sql, dialect(session), grammar);
                if (parsed != null && parsed.kind() != EventType.OTHER_DDL) {
                    for (ParsedDdl one : parsed.split()) {
                        for (OnlineDdl.Part part : online == null ? List.of(OnlineDdl.Part.same(one))
                                : online.translate(one, pos.apply(0), defaultDb, session)) {
                            ParsedDdl d = part.ddl();
                            if (d == null) {
                                onlineSteps = onlineSteps == null ? part.step() : onlineSteps.andThen(part.step());
                            } else if (selected(d)) {
                                refuseGroupDdl(op, d);
                                tracker.apply(d, part.session() == null ? session.get() : part.session(),
                                        String.valueOf(pos.apply(0).restartPoint()));
                                parts.add(d);
                            }
                        }
                    }
                }
            } catch (UnreadableDdlException e) {
                LOG.debug("sync: the statement a binlog operator names cannot be read ({}): {}", e.reason(),
                        e.shortStatement());
            }
        }
        List<TableName> tables = parts.stream().flatMap(d -> d.touched().stream()).distinct().toList();
        BarrierStep step = operators.step(op, sql);
        step = onlineSteps == null ? step : step.andThen(onlineSteps);
        if (op.kind() == BinlogOperator.Kind.SKIP) {
            return List.of(new DdlChange(defaultDb, "", sql, tables, List.of(), null, "", pos.apply(0), eventMillis,
                    null, false, step));
        }
        ParsedDdl first = parts.isEmpty() ? null : parts.get(0);
        String targetSchema = first == null || first.isDatabase() ? null : router.apply(first.primary()).schema();
        String options = targetSchema == null ? "" : tracker.databaseOptions(first.primary().schema());
        List<DdlChange> out = new ArrayList<>();
        for (int i = 0; i < op.statements().size(); i++) {
            String s = op.statements().get(i);
            DdlChange c = new DdlChange(defaultDb, s, sql, tables,
                    touchedBy(s, targetSchema != null ? targetSchema : defaultDb, session), targetSchema, options,
                    pos.apply(i), eventMillis, session.get(), false);
            out.add(i == op.statements().size() - 1 ? c.withStep(step) : c);
        }
        return out;
    }

    /**
     * {@code jdm binlog inject}: the operator's statements run first, in the statement's session and
     * with its table's target database as the default one, each at its own position within the
     * event; then the statement is planned as usual, at the positions after them. The last change
     * marks the operator applied.
     */
    private List<DdlChange> injected(BinlogOperator op, String defaultDb, String sql, Supplier<SourceSession> session,
                                     IntFunction<ChangePos> pos, long eventMillis) {
        int n = op.statements().size();
        List<TableName> tables = touchedBy(sql, defaultDb, session);
        String targetSchema = tables.isEmpty() ? defaultDb : router.apply(tables.get(0)).schema();
        String options = tables.isEmpty() ? "" : tracker.databaseOptions(tables.get(0).schema());
        List<DdlChange> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String s = op.statements().get(i);
            out.add(new DdlChange(defaultDb, s, sql, tables, touchedBy(s, targetSchema != null ? targetSchema
                    : defaultDb, session), targetSchema, options, pos.apply(i), eventMillis, session.get(), false));
        }
        List<DdlChange> planned = plan(defaultDb, sql, session, i -> pos.apply(n + i), eventMillis, op.position(), null);
        if (!planned.isEmpty() && planned.get(planned.size() - 1).step() != null) {
            throw new FatalException("sync: the binlog inject at " + op.position() + " names a group DDL of the "
                    + "shard mode (" + oneLine(sql) + "); resolve it with jdm shard-ddl-lock unlock, delete the "
                    + "operator (jdm binlog revert TASK.yaml --binlog-pos " + op.position() + ") and restart the task");
        }
        out.addAll(planned);
        int last = out.size() - 1;
        out.set(last, out.get(last).withStep(operators.step(op, sql)));
        return out;
    }

    /**
     * A shard mode's group DDL is one step of every shard's coordination: passing it on one shard
     * alone would leave the others waiting for it, so it is resolved with the lock instead.
     */
    private void refuseGroupDdl(BinlogOperator op, ParsedDdl d) {
        if (shards != null && !d.isDatabase() && ShardCoordinator.groupDdl(d.kind(), d.renamedTo() != null)) {
            throw new FatalException("sync: the binlog " + op.kind().word() + " at " + op.position() + " names a "
                    + "group DDL of the shard mode (" + oneLine(d.sql()) + " on " + d.primary() + "); resolve it with "
                    + "jdm shard-ddl-lock unlock (--action skip or exec), delete the operator (jdm binlog revert "
                    + "TASK.yaml --binlog-pos " + op.position() + ") and restart the task");
        }
    }

    /**
     * DM's filters on one table's statement: an ALTER TABLE is decided clause by clause (each with
     * its own type, see {@link AlterClauses}), anything else as a whole. Any clause with action
     * Error stops the task; the statement is skipped when nothing but clauses that say how to run
     * it (ALGORITHM, LOCK) would be left; when some clauses are skipped, the target gets the
     * statement without them, as one statement.
     *
     * @param before the table before the statement, when a MODIFY or CHANGE needs it typed
     * @return what the target gets; null when it gets nothing
     */
    private ParsedDdl filtered(ParsedDdl d, String defaultDb, ColumnChanges.Shape before, ChangePos at) {
        TableName p = d.primary();
        List<AlterClauses.Clause> clauses = d.clauses().stream().filter(c -> !c.neutral()).toList();
        if (clauses.isEmpty()) {
            Action action = decider.decide(p.schema(), p.table(), d.kind(), d.sql());
            stopOnError(action, d.kind(), d, at);
            if (action == Action.IGNORE) {
                LOG.info("sync: DDL at {} on {} skipped by a filter rule: {}", at, describe(p), oneLine(d.sql()));
                return null;
            }
            return d;
        }
        ColumnChanges.Shape after = before == null ? null : shapeOrNull(d.renamedTo() != null ? d.renamedTo() : p);
        List<AlterClauses.Clause> skipped = new ArrayList<>();
        List<String> skippedTypes = new ArrayList<>();
        for (AlterClauses.Clause c : clauses) {
            EventType type = c.column() == null ? c.event() : ColumnChanges.type(c.column(), before, after);
            Action action = decider.decide(p.schema(), p.table(), type, d.sql());
            stopOnError(action, type, d, at);
            if (action == Action.IGNORE) {
                skipped.add(c);
                skippedTypes.add(type.yamlName());
            }
        }
        if (skipped.isEmpty()) {
            return d;
        }
        if (skipped.size() == clauses.size()) {
            LOG.info("sync: DDL at {} on {} skipped by a filter rule ({}): {}", at, describe(p),
                    String.join(", ", skippedTypes), oneLine(d.sql()));
            return null;
        }
        String sql = without(d, skipped);
        ParsedDdl kept = DdlParser.parse(defaultDb, sql, d.dialect(), d.grammar());
        if (kept == null) {
            throw new FatalException("sync: the DDL at " + at.restartPoint() + " on " + describe(p) + " without the "
                    + "clauses a filter rule skips (" + String.join(", ", skippedTypes) + ") cannot be read back: "
                    + oneLine(sql) + "; change the rule so it skips the whole statement or none of it");
        }
        LOG.info("sync: DDL at {} on {}: {} clause(s) skipped by a filter rule ({}); the target gets: {}", at,
                describe(p), skipped.size(), String.join(", ", skippedTypes), oneLine(sql));
        return kept;
    }

    private static void stopOnError(Action action, EventType type, ParsedDdl d, ChangePos at) {
        if (action == Action.ERROR) {
            throw new FatalException("sync: a filter rule with action Error stopped the task at "
                    + at.restartPoint() + ": " + type.yamlName() + " on " + describe(d.primary()) + ": "
                    + oneLine(d.sql()) + "; change that rule in filters (or add an Ignore rule for this "
                    + "statement) and restart the task");
        }
    }

    /**
     * The statement without some of its clauses: each goes with the separator before it (the
     * first one kept loses its own), so commas and a partitioning clause's space stay right.
     */
    static String without(ParsedDdl d, List<AlterClauses.Clause> drop) {
        List<AlterClauses.Clause> all = d.clauses();
        String sql = d.sql();
        StringBuilder sb = new StringBuilder(sql.substring(0, all.get(0).start()));
        boolean first = true;
        for (int i = 0; i < all.size(); i++) {
            AlterClauses.Clause c = all.get(i);
            if (drop.contains(c)) {
                continue;
            }
            if (!first) {
                sb.append(sql, all.get(i - 1).end(), c.start());
            }
            sb.append(sql, c.start(), c.end());
            first = false;
        }
        return sb.append(sql.substring(all.get(all.size() - 1).end())).toString();
    }

    private static boolean hasColumnChange(ParsedDdl d) {
        return d.clauses().stream().anyMatch(c -> c.column() != null);
    }

    /** The tracker's definition of a table, or null when it has none (a MODIFY is then typed {@code alter table}). */
    private ColumnChanges.Shape shapeOrNull(TableName t) {
        try {
            return tracker.shape(t);
        } catch (RuntimeException e) {
            LOG.debug("sync: no definition of {} to type a column change by: {}", t, e.getMessage());
            return null;
        }
    }

    /** The tables a statement for the target touches, as far as the grammar reads it: what its DDL marker keeps. */
    private List<TableName> touchedBy(String sql, String db, Supplier<SourceSession> session) {
        try {
            ParsedDdl p = DdlParser.isDdl(sql, grammar) ? DdlParser.parse(db, sql, dialect(session), grammar) : null;
            return p == null || p.isDatabase() ? List.of() : p.touched();
        } catch (UnreadableDdlException e) {
            return List.of();
        }
    }

    /**
     * A DDL the grammar cannot read is never passed by, as a table whose DDL was lost would
     * differ from the source from then on: the task stops unless a filter rule (matched on the
     * statement's text) says Ignore.
     */
    private List<DdlChange> unreadable(String defaultDb, String sql, ChangePos at, String event,
                                       UnreadableDdlException e) {
        String db = defaultDb == null ? "" : defaultDb;
        if (decider.decide(db, "", EventType.OTHER_DDL, sql) == Action.IGNORE) {
            LOG.info("sync: DDL at {} skipped by a filter rule (jdm cannot read it: {}): {}", at, e.reason(),
                    e.shortStatement());
            return List.of();
        }
        throw new FatalException("sync: cannot read the DDL statement at " + at.restartPoint() + " ("
                + e.reason() + "): " + e.shortStatement() + "; apply it to the target yourself if it is "
                + "needed there, skip it (jdm binlog skip TASK.yaml --binlog-pos " + event + ") or add a filter "
                + "rule with schema-pattern \"" + (db.isEmpty() ? "*" : db)
                + "\", no events, an sql-pattern matching this statement and action Ignore, and restart the task");
    }

    /**
     * A row change logged as a statement (its session's binlog_format was STATEMENT or MIXED) has
     * no rows to replay, and running the statement again on the target may change other rows than
     * it did on the source: the task stops, unless a filter rule (matched on the text) says Ignore.
     */
    private List<DdlChange> loggedAsStatement(String defaultDb, String verb, String sql, ChangePos at,
                                              String event) {
        String db = defaultDb == null ? "" : defaultDb;
        if (decider.decide(db, "", EventType.OTHER_DDL, sql) == Action.IGNORE) {
            LOG.info("sync: {} logged as a statement at {} skipped by a filter rule: {}", verb, at, oneLine(sql));
            return List.of();
        }
        throw new FatalException("sync: the " + verb + " at " + at.restartPoint() + " was logged as a statement, not "
                + "as row events (its session ran with binlog_format STATEMENT or MIXED), so sync cannot replay it: "
                + UnreadableDdlException.shorten(sql) + "; make every session write ROW (a session may "
                + "override the global binlog_format), apply the statement to the target yourself if it changed "
                + "replicated tables, skip it (jdm binlog skip TASK.yaml --binlog-pos " + event
                + ") or add a filter rule with schema-pattern \"" + (db.isEmpty() ? "*" : db)
                + "\", no events, an sql-pattern matching this statement and action Ignore, and restart the task");
    }

    /** How the statement's own session reads its text: its sql_mode; every conditional comment is code. */
    private static SqlDialect dialect(Supplier<SourceSession> session) {
        return dialect(session.get());
    }

    static SqlDialect dialect(SourceSession s) {
        return s == null ? SqlDialect.DEFAULT
                : new SqlDialect(s.ansiQuotes(), s.noBackslashEscapes(), SqlDialect.DEFAULT.serverVersion());
    }

    private boolean selected(ParsedDdl d) {
        if (d.isDatabase()) {
            return selected.test(d.primary().schema(), "");
        }
        return d.touched().stream().anyMatch(t -> selected.test(t.schema(), t.table()));
    }

    private static String describe(TableName t) {
        return t.table().isEmpty() ? "database " + t.schema() : t.toString();
    }

    static String oneLine(String sql) {
        return sql.strip().replaceAll("\\s+", " ");
    }
}
