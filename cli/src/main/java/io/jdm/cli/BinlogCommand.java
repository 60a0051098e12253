package io.jdm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jdm.cli.run.StatementStatus;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.SqlScanner;
import io.jdm.common.sql.StatementText;
import io.jdm.sync.checkpoint.DdlMarkers;
import io.jdm.sync.operator.BinlogOperator;
import io.jdm.sync.operator.OperatorStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * DM's {@code dmctl binlog skip|replace|list|revert}: binlog operators, written to the target's
 * meta schema ({@link OperatorStore}), where the task's sync reads them when it starts and every few
 * seconds while it runs. Without
 * {@code --binlog-pos} an operator goes to the DDL the source is stopped at: the statement the
 * target refused, whose marker ({@link DdlMarkers}) stays on the target until the checkpoint passes
 * it.
 */
@Command(name = "binlog", mixinStandardHelpOptions = true,
        subcommands = {BinlogCommand.Skip.class, BinlogCommand.Replace.class, BinlogCommand.Inject.class,
                BinlogCommand.ListOperators.class, BinlogCommand.Revert.class},
        description = "Tell a task's sync what to do with one statement of a source's binlog, as dmctl binlog does: "
                + "skip it, run other statements in its place or before it. By default the statement is the DDL the target "
                + "refused, where the task stopped. The operator is stored on the target and applied once, when the "
                + "task's sync reaches the statement: a running task reads it within seconds, a stopped one when "
                + "started again (jdm run).")
final class BinlogCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UsageError("binlog: give an operation: jdm binlog skip|replace|inject|list|revert TASK.yaml");
    }

    /** The task file, its source files and the source an operation is for. */
    static final class TaskOptions {
        @Parameters(index = "0", paramLabel = "TASK.yaml", description = "The task file.")
        Path taskFile;

        @Mixin
        SourceOptions sources = new SourceOptions();

        @Option(names = "--source-id", paramLabel = "ID",
                description = "The source the statement is in (needed when the task has several and it is not "
                        + "the only one stopped at a DDL).")
        String sourceId;

        TaskConfig load() {
            TaskConfig task = TaskFiles.load(taskFile, sources);
            if (sourceId != null) {
                TaskFiles.runOnly(task, List.of(sourceId)); // an id the task lacks: one line naming its ids
            }
            return task;
        }

        /** The sources this operation may concern: the one named, else every source of the task. */
        List<String> sourceIds(TaskConfig task) {
            return sourceId != null ? List.of(sourceId)
                    : task.mysqlInstances().stream().map(MySqlInstance::sourceId).toList();
        }
    }

    /** Where an operator goes: a source and a binlog position, and the statement there when known. */
    record At(String sourceId, String file, long pos, String statement) {
        String position() {
            return file + ":" + pos;
        }
    }

    /** What skip, replace and revert share: the task, the position, and finding the stopped DDL. */
    abstract static class AtPosition implements Callable<Integer> {
        @Mixin
        TaskOptions options = new TaskOptions();

        @Option(names = {"-b", "--binlog-pos"}, paramLabel = "FILE:POS",
                description = "The statement's position as the task's failure line names it (mysql-bin.000003:1234),"
                        + " or its QUERY event's position in SHOW BINLOG EVENTS. Default: the DDL the target refused.")
        String binlogPos;

        abstract String verb();

        abstract int run(Connection c, OperatorStore store, TaskConfig task, At at) throws SQLException;

        @Override
        public Integer call() throws Exception {
            if (binlogPos != null) {
                parse("", binlogPos); // a bad position is said before anything connects
            }
            TaskConfig task = options.load();
            OperatorStore store = new OperatorStore(OperatorStore.table(task.metaSchema(), task.name()));
            try (Connection c = DataSources.connect(task.targetDatabase().toConnectionSpec())) {
                return run(c, store, task, locate(c, task));
            } catch (SQLException e) {
                throw ErrorClassifier.wrap(verb() + ": task " + task.name() + ", " + store.table()
                        + " on the target", e);
            }
        }

        private At locate(Connection c, TaskConfig task) throws SQLException {
            List<String> ids = options.sourceIds(task);
            if (binlogPos != null) {
                if (ids.size() > 1) {
                    throw new UsageError(verb() + ": task " + task.name() + " has the sources " + String.join(", ", ids)
                            + "; say which one the position is in with --source-id");
                }
                At at = parse(ids.get(0), binlogPos);
                DdlMarkers.Marker m = stoppedAt(c, task, at.sourceId());
                boolean there = m != null && m.pos().file().equals(at.file()) && m.pos().txnPos() == at.pos();
                return new At(at.sourceId(), at.file(), at.pos(), there ? m.statement() : null);
            }
            List<At> stopped = new ArrayList<>();
            for (String id : ids) {
                DdlMarkers.Marker m = stoppedAt(c, task, id);
                if (m != null) {
                    stopped.add(new At(id, m.pos().file(), m.pos().txnPos(), m.statement()));
                }
            }
            if (stopped.isEmpty()) {
                throw new UsageError(verb() + ": task " + task.name() + (ids.size() == 1 ? " (source " + ids.get(0)
                        + ")" : "") + " is not stopped at a DDL the target refused; give the position its failure "
                        + "line names: --binlog-pos FILE:POS");
            }
            if (stopped.size() > 1) {
                throw new UsageError(verb() + ": the sources " + String.join(", ", stopped.stream()
                        .map(a -> a.sourceId() + " (at " + a.position() + ")").toList()) + " of task " + task.name()
                        + " are stopped at a DDL; say which one with --source-id");
            }
            return stopped.get(0);
        }

        /** The existing operator at {@code at}, or null. */
        static BinlogOperator existing(Connection c, OperatorStore store, At at) throws SQLException {
            return store.list(c, at.sourceId()).stream()
                    .filter(o -> o.file().equals(at.file()) && o.pos() == at.pos()).findFirst().orElse(null);
        }

        /** An operator that was applied stays: its statement is behind the checkpoint. */
        void refuseApplied(BinlogOperator o, TaskConfig task) {
            if (o != null && o.done()) {
                throw new UsageError(verb() + ": the binlog " + o.kind().word() + " at " + o.position() + " (task "
                        + task.name() + ", source " + o.sourceId() + ") was applied at " + o.applied()
                        + "; the task is past that statement");
            }
        }
    }

    /** The DDL the source's sync stopped in (refused, or running when the process ended), or null. */
    static DdlMarkers.Marker stoppedAt(Connection c, TaskConfig task, String sourceId) throws SQLException {
        try {
            return new DdlMarkers(DdlMarkers.table(task.metaSchema(), task.name()), sourceId).load(c);
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTableOrDatabase(e)) {
                return null; // the task has not synced yet
            }
            throw e;
        }
    }

    /** {@code FILE:POS}, as a failure line writes a position. */
    static At parse(String sourceId, String value) {
        int colon = value.lastIndexOf(':');
        long pos = -1;
        try {
            pos = colon > 0 ? Long.parseLong(value.substring(colon + 1).strip()) : -1;
        } catch (NumberFormatException e) {
            // reported below
        }
        if (pos < 4) { // a binlog file starts with its 4-byte magic number
            throw new UsageError("--binlog-pos: must be FILE:POS with POS a byte offset of at least 4, as a failure "
                    + "line writes it (mysql-bin.000003:1234), got " + value);
        }
        return new At(sourceId, value.substring(0, colon).strip(), pos, null);
    }

    /** Writes the operator, in place of {@code before} (waiting at the same position) if not null. */
    private static void write(Connection c, OperatorStore store, TaskConfig task, At at, BinlogOperator before,
                              BinlogOperator.Kind kind, List<String> statements, String verb, String what)
            throws SQLException {
        store.ensureTable(c);
        store.put(c, BinlogOperator.of(at.sourceId(), at.file(), at.pos(), kind, statements, at.statement()));
        System.out.println(verb + ": task " + task.name() + ", source " + at.sourceId() + ": the statement at "
                + at.position() + (at.statement() == null ? "" : " (" + StatementText.shown(at.statement()) + ")") + " " + what
                + " when the task's sync reaches it" + (before == null ? "" : ", in place of the waiting binlog "
                + before.kind().word()) + "; a running task reads it within seconds, a stopped one when started again "
                + "(jdm run)");
    }

    @Command(name = "skip", mixinStandardHelpOptions = true,
            description = "Skip the statement at the position (default: the DDL the target refused): the target "
                    + "does not get it, and the task goes on after it. Only that statement: a later one with the "
                    + "same text is applied as usual.")
    static final class Skip extends AtPosition {
        @Override
        String verb() {
            return "binlog skip";
        }

        @Override
        int run(Connection c, OperatorStore store, TaskConfig task, At at) throws SQLException {
            BinlogOperator before = existing(c, store, at);
            refuseApplied(before, task);
            write(c, store, task, at, before, BinlogOperator.Kind.SKIP, List.of(), verb(), "is skipped");
            return ExitCode.OK;
        }
    }

    /** replace and inject: an operator with statements to run. */
    abstract static class WithStatements extends AtPosition {
        @Option(names = "--sql", required = true, paramLabel = "STATEMENTS",
                description = "The statements to run on the target (repeatable; one --sql may hold several, "
                        + "separated by ;).")
        List<String> sql = new ArrayList<>();

        abstract BinlogOperator.Kind kind();

        @Override
        String verb() {
            return "binlog " + kind().word();
        }

        @Override
        public Integer call() throws Exception {
            statements(); // a bad --sql is said before anything connects
            return super.call();
        }

        private List<String> statements() {
            List<String> out = new ArrayList<>();
            SqlScanner scanner = new SqlScanner(SqlDialect.DEFAULT);
            sql.forEach(s -> out.addAll(scanner.statements(s)));
            if (out.isEmpty()) {
                throw new UsageError("--sql: no statement in " + sql + "; give the statements to run "
                        + (kind() == BinlogOperator.Kind.INJECT ? "before" : "in place of") + " the one at the position");
            }
            return out;
        }

        @Override
        int run(Connection c, OperatorStore store, TaskConfig task, At at) throws SQLException {
            BinlogOperator before = existing(c, store, at);
            refuseApplied(before, task);
            List<String> statements = statements();
            String n = statements.size() + (statements.size() == 1 ? " statement" : " statements");
            write(c, store, task, at, before, kind(), statements, verb(), kind() == BinlogOperator.Kind.INJECT
                    ? "gets " + n + " run before it" : "is replaced by " + n);
            return ExitCode.OK;
        }
    }

    @Command(name = "replace", mixinStandardHelpOptions = true,
            description = "Run other statements in place of the one at the position (default: the DDL the target "
                    + "refused), as a DDL is run: in its source session, with the target database of its table as "
                    + "the default one.")
    static final class Replace extends WithStatements {
        @Override
        BinlogOperator.Kind kind() {
            return BinlogOperator.Kind.REPLACE;
        }
    }

    @Command(name = "inject", mixinStandardHelpOptions = true,
            description = "Run statements before the one at the position (default: the DDL the target refused), "
                    + "in its source session and with the target database of its table as the default one; the "
                    + "statement itself is then applied as usual.")
    static final class Inject extends WithStatements {
        @Override
        BinlogOperator.Kind kind() {
            return BinlogOperator.Kind.INJECT;
        }
    }

    @Command(name = "revert", mixinStandardHelpOptions = true,
            description = "Delete the operator waiting at the position (default: the DDL the target refused). "
                    + "One already applied stays.")
    static final class Revert extends AtPosition {
        @Override
        String verb() {
            return "binlog revert";
        }

        @Override
        int run(Connection c, OperatorStore store, TaskConfig task, At at) throws SQLException {
            BinlogOperator o = existing(c, store, at);
            refuseApplied(o, task);
            if (o == null || !store.delete(c, at.sourceId(), at.file(), at.pos())) {
                throw new UsageError(verb() + ": no operator waits at " + at.position() + " (task " + task.name()
                        + ", source " + at.sourceId() + "); list them with jdm binlog list");
            }
            System.out.println(verb() + ": task " + task.name() + ", source " + at.sourceId() + ": the binlog "
                    + o.kind().word() + " at " + at.position() + " is deleted; the statement there is applied "
                    + "as usual");
            return ExitCode.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List a task's binlog operators (waiting or done) and the DDL each source is stopped at, "
                    + "as JSON.")
    static final class ListOperators implements Callable<Integer> {
        @Mixin
        TaskOptions options = new TaskOptions();

        @Override
        public Integer call() throws Exception {
            TaskConfig task = options.load();
            OperatorStore store = new OperatorStore(OperatorStore.table(task.metaSchema(), task.name()));
            List<Map<String, Object>> operators = new ArrayList<>();
            List<Map<String, Object>> stopped = new ArrayList<>();
            try (Connection c = DataSources.connect(task.targetDatabase().toConnectionSpec())) {
                operators.addAll(StatementStatus.operators(store.list(c, options.sourceId)));
                for (String id : options.sourceIds(task)) {
                    DdlMarkers.Marker mk = stoppedAt(c, task, id);
                    if (mk != null) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("source", id);
                        m.put("binlogPos", mk.pos().file() + ":" + mk.pos().txnPos());
                        m.put("statement", StatementText.shown(mk.statement()));
                        stopped.add(m);
                    }
                }
            } catch (SQLException e) {
                throw ErrorClassifier.wrap("binlog list: task " + task.name() + ", " + store.table()
                        + " on the target", e);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("result", true);
            out.put("msg", "");
            out.put("operators", operators);
            out.put("stoppedAt", stopped);
            System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out));
            return ExitCode.OK;
        }
    }
}
