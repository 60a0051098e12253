package io.jdm.sync.reader;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.jdm.common.config.EventType;
import io.jdm.common.error.FatalException;
import io.jdm.common.sql.TableName;
import io.jdm.sync.checkpoint.OnlineDdlStore;
import io.jdm.sync.ring.BarrierStep;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.SourceSession;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gh-ost and pt-online-schema-change as DM's online-ddl handles them. Their tables are known by
 * {@link ShadowRules} (DM's {@code shadow-table-rules} and {@code trash-table-rules}; by default
 * {@code _t_gho} / {@code _t_new} hold the new copy, {@code _t_ghc} is gh-ost's changelog,
 * {@code _t_del} / {@code _t_old} the old table after the swap) and never reach the target: DML on
 * them is not replicated, their CREATE/DROP are passed by, and an ALTER of the ghost table is
 * recorded, rewritten to the real table. At the cut-over ({@code RENAME TABLE t TO _t_del, _t_gho
 * TO t}, or gh-ost's two-step {@code RENAME TABLE t TO _t_del} then {@code RENAME TABLE _t_gho TO
 * t}) the recorded ALTERs are what is applied to the real table, once, each in the session and
 * default database it ran in on the source, in place of the swap. The rename of the real table to
 * the trash name is not applied: on the target the real table stays where it is between the two
 * statements of a two-step cut-over. The RENAME, not the rule, says which table the ghost table is
 * swapped in as (pt-online-schema-change's {@code __t_new}, when {@code _t_new} exists, is t's).
 * What the target cannot be given as the source has it (see {@link #unfaithful}) stops the task.
 *
 * <p>A migration takes hours, so what is recorded must outlive the process. It is kept in
 * {@link OnlineDdlStore} ({@code {meta}.{task}_onlineddl}), always as it is at the checkpoint:
 * <ul>
 * <li>a recorded ALTER becomes a barrier with no statement whose step writes its row in the
 *     transaction that moves every writer's checkpoint past it: a crash keeps both or neither, and
 *     a restart that reads the ALTER again (the checkpoint is at it) finds its position among the
 *     statements read back at start and records nothing twice;</li>
 * <li>at the cut-over each recorded statement is an ordinary DDL (its own DDL marker and checkpoint
 *     move, so none runs twice after a crash), followed by a barrier whose step deletes the rows;
 *     a restart in between reads the rename again with every row still there and passes the
 *     statements already behind the checkpoint;</li>
 * <li>a DROP (or a new CREATE, or a rename elsewhere) of the ghost table, an abandoned migration,
 *     deletes the rows the same way.</li>
 * </ul>
 * The memory here is the state at the reader's position, ahead of the checkpoint; the store is read
 * back at start, when the reader starts from the checkpoint. Reader thread only.
 */
final class OnlineDdl {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineDdl.class);

    /**
     * What the planner makes of one table's statement: a statement ({@code ddl}), in its own session
     * and default database when it was recorded earlier (else, null, the event's), or a barrier
     * step alone on {@code table} ({@code ddl} null).
     */
    record Part(ParsedDdl ddl, String schema, SourceSession session, BarrierStep step, TableName table) {
        static Part same(ParsedDdl d) {
            return new Part(d, null, null, null, null);
        }
    }

    private record Entry(ParsedDdl ddl, SourceSession session, OnlineDdlStore.Recorded row) {
    }

    private final ShadowRules rules;
    /** Null: nothing is kept past the process (a reader without a sync unit's target). */
    private final OnlineDdlStore store;
    /** Whether the task migrates any table of a schema: the shadow tables of other schemas are not its. */
    private final Predicate<String> schemaSelected;
    private final Map<TableName, List<Entry>> recorded = new LinkedHashMap<>();

    OnlineDdl(ShadowRules rules, OnlineDdlStore store, DdlGrammar grammar) {
        this(rules, store, grammar, db -> true);
    }

    /**
     * @param schemaSelected whether the task migrates tables of a schema: a shadow table elsewhere
     *     (another task's migration, on the same source) is left alone, its statements recorded nowhere
     */
    OnlineDdl(ShadowRules rules, OnlineDdlStore store, DdlGrammar grammar, Predicate<String> schemaSelected) {
        this.rules = rules;
        this.store = store;
        this.schemaSelected = schemaSelected;
        if (store != null) {
            for (OnlineDdlStore.Recorded r : store.atStart()) {
                SourceSession session = session(r);
                ParsedDdl d = DdlParser.parse(r.real().schema(), r.statement(), DdlPlanner.dialect(session), grammar);
                recorded.computeIfAbsent(r.real(), k -> new ArrayList<>()).add(new Entry(d, session, r));
                LOG.info("sync: online DDL on {} read back for the cut-over of {}: {}", r.ghost(), r.real(),
                        DdlPlanner.oneLine(r.statement()));
            }
        }
    }

    /** Whether {@code t} is a shadow or trash table, whose rows are not replicated. */
    boolean isShadow(TableName t) {
        return rules.isShadow(t);
    }

    /** Whether {@code d} is a statement on a shadow or trash table of a schema the task migrates. */
    private boolean ours(ParsedDdl d) {
        return !d.isDatabase() && d.touched().stream().anyMatch(t -> rules.isShadow(t) && schemaSelected.test(t.schema()));
    }

    /**
     * What to apply in place of {@code d} (one table's statement, after splitting): usually {@code d}.
     *
     * @param at the position the first part gets
     * @param schema the default database the statement ran in
     * @param session the session it ran in
     */
    List<Part> translate(ParsedDdl d, ChangePos at, String schema, Supplier<SourceSession> session) {
        if (!ours(d)) {
            return List.of(Part.same(d));
        }
        TableName primary = d.primary();
        TableName real = rules.ghostReal(primary);
        if (real == null) {
            return List.of(); // a trash table's statement, or the real table renamed to the trash name
        }
        if (d.kind() == EventType.RENAME_TABLE) {
            TableName to = cutOverOnto(d, primary, real);
            return to != null ? cutOver(primary, real, to) : forget(real, "renamed to " + d.renamedTo());
        }
        if (d.kind() == EventType.ALTER_TABLE || d.kind() == EventType.CREATE_INDEX
                || d.kind() == EventType.DROP_INDEX) {
            return record(d, primary, real, at, schema, session.get());
        }
        if (d.kind() == EventType.CREATE_TABLE || d.kind() == EventType.DROP_TABLE) {
            // a migration begins afresh, or was abandoned (or is over): its ALTERs must not apply
            return forget(real, (d.kind() == EventType.DROP_TABLE ? "dropped" : "created again"));
        }
        return List.of();
    }

    /**
     * Why {@code d} cannot be followed so that the target's table ends as the source's, and what to do,
     * or null. Asked of a statement as it is planned, not of one a binlog operator stands in for.
     * <ul>
     * <li>A shadow table created with foreign keys: the tool names them apart from the real table's
     *     (pt-online-schema-change adds or takes off a leading underscore, as InnoDB keeps constraint
     *     names unique per database), so after the cut-over the source's table has constraint names
     *     the recorded ALTERs do not give the target's.</li>
     * <li>A cut-over while ALTERs of another shadow table wait for the same real table: which of them
     *     the swapped-in table got cannot be told.</li>
     * </ul>
     *
     * @param event {@code file:pos} of the statement's QUERY event, for a binlog operator
     */
    String unfaithful(ParsedDdl d, String event) {
        if (!ours(d)) {
            return null;
        }
        TableName ghost = d.primary();
        TableName real = rules.ghostReal(ghost);
        if (real == null) {
            return null;
        }
        if (d.kind() == EventType.CREATE_TABLE
                && d.refs().stream().anyMatch(r -> r.role() == ParsedDdl.Role.REFERENCES)) {
            return "the shadow table " + ghost + " is created with foreign keys, which the online schema change tool "
                    + "names apart from the real table's (pt-online-schema-change adds or takes off a leading "
                    + "underscore): after its cut-over the source's table has constraint names the target's cannot "
                    + "get from the recorded ALTERs; skip this statement (jdm binlog skip TASK.yaml --binlog-pos "
                    + event + ") to have the cut-over apply the ALTERs with the target's names kept, and after it "
                    + "rename the foreign keys of the target's " + real + " as the source's are";
        }
        TableName to = d.kind() == EventType.RENAME_TABLE ? cutOverOnto(d, ghost, real) : null;
        List<TableName> others = to == null ? List.of() : recorded.getOrDefault(real, List.of()).stream()
                .map(e -> e.row().ghost()).filter(g -> !g.equals(ghost)).distinct().toList();
        if (!others.isEmpty()) {
            return "the shadow table " + ghost + " is renamed to " + to + " while ALTERs of " + others + " wait for "
                    + "the same real table " + real + ": which of them " + to + " got cannot be told; make the "
                    + "target's " + to + " what the source's became and skip this statement (jdm binlog skip "
                    + "TASK.yaml --binlog-pos " + event + "), or give the target statements in its place (jdm binlog "
                    + "replace TASK.yaml --binlog-pos " + event + " --sql ...)";
        }
        return null;
    }

    /**
     * The table a RENAME of the shadow table {@code ghost} swaps it in as, or null when it is no cut-over:
     * the real table its rule names, or any table but a shadow or trash one when ALTERs of {@code ghost}
     * wait. pt-online-schema-change names its table {@code __t_new} when {@code _t_new} exists (a
     * leftover of an earlier run), which DM's rule reads as the shadow table of {@code _t}; its
     * RENAME says which table it is.
     */
    private TableName cutOverOnto(ParsedDdl d, TableName ghost, TableName real) {
        TableName to = d.renamedTo();
        if (to.equals(real)) {
            return to;
        }
        boolean waiting = recorded.getOrDefault(real, List.of()).stream().anyMatch(e -> e.row().ghost().equals(ghost));
        return waiting && !rules.isShadow(to) ? to : null;
    }

    private List<Part> record(ParsedDdl d, TableName ghost, TableName real, ChangePos at, String schema,
                              SourceSession session) {
        List<Entry> list = recorded.computeIfAbsent(real, k -> new ArrayList<>());
        if (list.stream().anyMatch(e -> e.row().pos().compareTo(at) == 0)) {
            return List.of(); // read again after a restart: recorded before it
        }
        String sql = d.rewrite(n -> real, r -> r.role() == ParsedDdl.Role.TABLE && r.name().equals(ghost));
        ParsedDdl onReal = DdlParser.parse(ghost.schema(), sql, d.dialect(), d.grammar());
        if (onReal == null) {
            return List.of();
        }
        OnlineDdlStore.Recorded row = new OnlineDdlStore.Recorded(real, list.size(), ghost, at,
                schema == null ? "" : schema, session == null ? "" : session.json(), sql);
        list.add(new Entry(onReal, session, row));
        LOG.info("sync: online DDL on {} recorded for the cut-over: {}", ghost, DdlPlanner.oneLine(d.sql()));
        if (store == null) {
            return List.of();
        }
        return List.of(stepAlone(real, "online DDL on " + ghost + " recorded for the cut-over of " + real + ": "
                + DdlPlanner.oneLine(sql), c -> store.record(c, row)));
    }

    private List<Part> cutOver(TableName ghost, TableName real, TableName to) {
        List<Entry> list = recorded.remove(real);
        LOG.info("sync: online DDL cut-over on {}: applying {} recorded statement(s) in place of the swap", to,
                list == null ? 0 : list.size());
        if (list == null) {
            return List.of();
        }
        if (!to.equals(real)) {
            LOG.info("sync: online DDL: the shadow table {} is swapped in as {}, not as the {} its name says: its "
                    + "recorded statements apply to {}", ghost, to, real, to);
        }
        List<Part> out = new ArrayList<>();
        for (Entry e : list) {
            out.add(new Part(to.equals(real) ? e.ddl() : onto(e.ddl(), real, to), e.row().schema(), e.session(),
                    null, null));
        }
        if (store != null) {
            out.add(stepAlone(to, "online DDL cut-over on " + to + ": " + list.size()
                    + " recorded statement(s) applied, forgotten", c -> store.forget(c, real)));
        }
        return out;
    }

    /** {@code d}, recorded for {@code real}, on {@code to}. */
    private static ParsedDdl onto(ParsedDdl d, TableName real, TableName to) {
        String sql = d.rewrite(n -> to, r -> r.role() == ParsedDdl.Role.TABLE && r.name().equals(real));
        return DdlParser.parse(to.schema(), sql, d.dialect(), d.grammar());
    }

    private List<Part> forget(TableName real, String why) {
        List<Entry> list = recorded.remove(real);
        if (list == null || list.isEmpty()) {
            return List.of();
        }
        LOG.info("sync: online DDL: the ghost table of {} was {}: its {} recorded statement(s) will not apply", real,
                why, list.size());
        return store == null ? List.of() : List.of(stepAlone(real, "online DDL on " + real + ": the ghost table was "
                + why + ", " + list.size() + " recorded statement(s) forgotten", c -> store.forget(c, real)));
    }

    private interface InTransaction {
        void run(Connection c) throws SQLException;
    }

    private static Part stepAlone(TableName real, String what, InTransaction work) {
        return new Part(null, null, null, new BarrierStep() {
            @Override
            public boolean runsStatement() {
                return false;
            }

            @Override
            public void inCheckpointTransaction(Connection c) throws SQLException {
                work.run(c);
            }

            @Override
            public void afterCommit() {
            }

            @Override
            public String describe() {
                return what;
            }
        }, real);
    }

    private static SourceSession session(OnlineDdlStore.Recorded r) {
        try {
            return r.session().isEmpty() ? null : SourceSession.fromJson(r.session());
        } catch (JsonProcessingException e) {
            throw new FatalException("sync: the session of the online DDL statement " + r.seq() + " of " + r.real()
                    + " in the online DDL table cannot be read: " + e.getOriginalMessage(), e);
        }
    }
}
