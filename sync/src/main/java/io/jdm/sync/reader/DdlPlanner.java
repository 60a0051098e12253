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
 *            ─► filters: Do / Ignore (skipped, positions still advance) / Error (task stops)
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
        tracker.apply(d, session.get(), String.valueOf(at.restartPoint()));
        TableName p = d.primary();
        Action action = decider.decide(p.schema(), p.table(), d.kind(), d.sql());
        if (action == Action.ERROR) {
            throw new FatalException("sync: a filter rule with action Error stopped the task at "
                    + at.restartPoint() + ": " + d.kind().yamlName() + " on " + describe(p) + ": "
                    + oneLine(d.sql()) + "; change that rule in filters (or add an Ignore rule for this "
                    + "statement) and restart the task");
        }
        if (action == Action.IGNORE) {
            LOG.info("sync: DDL at {} on {} skipped by a filter rule: {}", at, describe(p), oneLine(d.sql()));
            return;
        }
        String target = routes.targetSql(d, at);
        if (target == null) {
            return;
        }
        String targetSchema = d.isDatabase() ? null : router.apply(p).schema();
        String options = d.isDatabase() ? "" : tracker.databaseOptions(p.schema());
        DdlChange change = new DdlChange(defaultDb, target, d.sql(), d.touched(),
                d.touched().stream().map(router).distinct().toList(), targetSchema, options, at,
                eventMillis, session.get(), d.kind() == EventType.CREATE_TABLE);
        if (shards != null && !d.isDatabase() && ShardCoordinator.groupDdl(d.kind(), d.renamedTo() != null)) {
            change = change.withStep(shards.arrive(p, router.apply(p), target, d.sql(), at,
                    session.get(), tracker.copyOf(p), t -> d.rewrite(n -> n.equals(p) ? t : router.apply(n))));
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
