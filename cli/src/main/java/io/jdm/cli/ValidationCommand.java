package io.jdm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.config.ValidatorConfig;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.jdbc.DataSources;
import io.jdm.sync.validator.ValidatorStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
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
 * DM's {@code dmctl validation start|stop|status|show-error|ignore-error|resolve-error|clear-error}:
 * continuous validation (see {@code io.jdm.sync.validator}), read and changed in the target's meta
 * schema ({@link ValidatorStore}), where a running task's validator reads its stage every
 * {@code check-interval}. The output is DM's JSON.
 */
@Command(name = "validation", mixinStandardHelpOptions = true,
        subcommands = {ValidationCommand.Start.class, ValidationCommand.Stop.class, ValidationCommand.Status.class,
                ValidationCommand.ShowError.class, ValidationCommand.IgnoreError.class,
                ValidationCommand.ResolveError.class, ValidationCommand.ClearError.class, ValidationCommand.Update.class},
        description = "Continuous validation of a task's sync, as dmctl validation: start or stop it, show its "
                + "status and the rows that kept differing on the target, and ignore, resolve or clear those. "
                + "A running task follows start and stop within check-interval.")
final class ValidationCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public Integer call() {
        throw new UsageError("validation: give an operation: jdm validation "
                + "start|stop|status|show-error|ignore-error|resolve-error|clear-error|update TASK.yaml");
    }

    /** Runs {@code work} on the task's target, one line when it cannot. */
    private static <T> T onTarget(TaskConfig task, String what, SqlWork<T> work) {
        try (Connection c = DataSources.connect(task.targetDatabase().toConnectionSpec())) {
            return work.run(c, new ValidatorStore(task.metaSchema(), task.name()));
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("validation " + what + ": task " + task.name() + ", the meta schema "
                    + task.metaSchema() + " on the target", e);
        }
    }

    private interface SqlWork<T> {
        T run(Connection c, ValidatorStore store) throws SQLException;
    }

    private static int print(Map<String, Object> out) throws Exception {
        System.out.println(JSON.writeValueAsString(out));
        return Boolean.TRUE.equals(out.get("result")) ? ExitCode.OK : ExitCode.FAILED;
    }

    private static Map<String, Object> result(boolean ok, String msg) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("result", ok);
        out.put("msg", msg);
        return out;
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = "Start validating the rows the task's sync commits from now on (a stopped validator "
                    + "starts again in the mode it had).")
    static final class Start implements Callable<Integer> {
        private static final DateTimeFormatter START_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd[ ]['T']HH:mm:ss");

        @Mixin
        BinlogCommand.TaskOptions options = new BinlogCommand.TaskOptions();

        @Option(names = "--start-time", paramLabel = "'YYYY-MM-DD HH:MM:SS'",
                description = "Compare only the changes the source logged at or after this time (this machine's "
                        + "time zone; DM's 2006-01-02T15:04:05 form too). The validator follows the sync: changes "
                        + "the sync applied before this command are not compared, whatever the time (jdm verify "
                        + "compares the tables).")
        String startTime;

        @Option(names = "--mode", paramLabel = "full|fast",
                description = "full compares every column, fast only that the row exists (default: the task "
                        + "file's mode, else full); ignored for a validator that ran before.")
        String mode;

        @Override
        public Integer call() throws Exception {
            TaskConfig task = options.load();
            if (mode != null && !mode.equals("full") && !mode.equals("fast")) {
                throw new UsageError("validation start: --mode must be full or fast, got " + mode);
            }
            Long startMillis = startMillis();
            List<String> started = onTarget(task, "start", (c, store) -> {
                store.ensure(c);
                List<String> ids = new ArrayList<>();
                for (String id : options.sourceIds(task)) {
                    ValidatorStore.State s = store.state(c, id);
                    String m = s != null ? s.mode() : mode != null ? mode : fileMode(task, id);
                    store.setStage(c, id, m, ValidatorStore.RUNNING, "");
                    store.setStartTime(c, id, startMillis);
                    ids.add(id + " (" + m + ")");
                }
                return ids;
            });
            return print(result(true, "validation started for " + String.join(", ", started)
                    + (startMillis == null ? "" : ", for changes the source logged at or after " + startTime.strip()
                    + " that the sync commits from now on")
                    + "; a running task follows within check-interval"));
        }

        /** {@code --start-time} in this machine's time zone, as ms since 1970; null without it. */
        private Long startMillis() {
            if (startTime == null) {
                return null;
            }
            try {
                return LocalDateTime.parse(startTime.strip(), START_TIME).atZone(ZoneId.systemDefault()).toInstant()
                        .toEpochMilli();
            } catch (DateTimeParseException e) {
                throw new UsageError("validation start: --start-time must be 'YYYY-MM-DD HH:MM:SS' or "
                        + "YYYY-MM-DDTHH:MM:SS, got " + startTime);
            }
        }

        private static String fileMode(TaskConfig task, String id) {
            return task.mysqlInstances().stream().filter(i -> i.sourceId().equals(id)).map(MySqlInstance::validator)
                    .filter(ValidatorConfig::enabled).map(v -> v.mode().yamlName()).findFirst().orElse("full");
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stop validating; the rows still pending are forgotten, the error rows kept.")
    static final class Stop implements Callable<Integer> {
        @Mixin
        BinlogCommand.TaskOptions options = new BinlogCommand.TaskOptions();

        @Override
        public Integer call() throws Exception {
            TaskConfig task = options.load();
            List<String> missing = onTarget(task, "stop", (c, store) -> {
                List<String> none = new ArrayList<>();
                for (String id : options.sourceIds(task)) {
                    ValidatorStore.State s = store.state(c, id);
                    if (s == null) {
                        none.add(id);
                    } else {
                        store.setStage(c, id, s.mode(), ValidatorStore.STOPPED, "jdm validation stop");
                    }
                }
                return none;
            });
            if (!missing.isEmpty()) {
                return print(result(false, "validator not found for task " + task.name() + ", source "
                        + String.join(", ", missing) + ": start it with jdm validation start"));
            }
            return print(result(true, "validation stopped"));
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Each source's validator (mode, stage, rows processed, pending and in error) and each "
                    + "table's stage, as dmctl validation status prints them.")
    static final class Status implements Callable<Integer> {
        @Mixin
        BinlogCommand.TaskOptions options = new BinlogCommand.TaskOptions();

        @Option(names = "--table-stage", paramLabel = "running|stopped", description = "Only tables in this stage.")
        String tableStage;

        @Override
        public Integer call() throws Exception {
            TaskConfig task = options.load();
            Map<String, Object> out = onTarget(task, "status", (c, store) -> {
                List<String> ids = options.sourceIds(task);
                Map<String, long[]> errors = store.errorCounts(c);
                List<Map<String, Object>> validators = new ArrayList<>();
                for (ValidatorStore.State s : store.states(c)) {
                    if (!ids.contains(s.source())) {
                        continue;
                    }
                    long[] e = errors.getOrDefault(s.source(), new long[3]);
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("task", task.name());
                    v.put("source", s.source());
                    v.put("mode", s.mode());
                    v.put("stage", s.stage());
                    v.put("validatorBinlog", s.position() == null ? "" : s.position());
                    v.put("validatorBinlogGtid", "");
                    v.put("result", s.message() == null || s.message().isEmpty() ? null
                            : Map.of("isCanceled", false, "errors", List.of(Map.of("message", s.message()))));
                    v.put("processedRowsStatus", "insert/update/delete: " + s.processed()[0] + "/"
                            + s.processed()[1] + "/" + s.processed()[2]);
                    v.put("pendingRowsStatus", "insert/update/delete: " + s.pendingRows()[0] + "/"
                            + s.pendingRows()[1] + "/" + s.pendingRows()[2]);
                    v.put("errorRowsStatus", "new/ignored/resolved: " + e[0] + "/" + e[1] + "/" + e[2]);
                    v.put("cutoverBinlogPos", s.cutoverPos() == null ? "" : s.cutoverPos());
                    v.put("cutoverBinlogGtid", s.cutoverGtid() == null ? "" : s.cutoverGtid());
                    validators.add(v);
                }
                List<Map<String, Object>> tables = new ArrayList<>();
                for (Map<String, Object> t : store.tableStatuses(c)) {
                    if (ids.contains(t.get("source")) && (tableStage == null
                            || tableStage.equalsIgnoreCase(String.valueOf(t.get("stage"))))) {
                        tables.add(t);
                    }
                }
                if (validators.isEmpty()) {
                    return result(false, "validator not found for task " + task.name()
                            + ": start it with jdm validation start, or give the task a validators: entry");
                }
                Map<String, Object> m = result(true, "");
                m.put("validators", validators);
                m.put("tableStatuses", tables);
                return m;
            });
            return print(out);
        }
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = "Set where validation is to be complete, as dmctl validation update does: once the sync's "
                    + "checkpoint reaches it, the running validator saves its pending rows and counters at once, and "
                    + "validation status shows the cutover until then.")
    static final class Update implements Callable<Integer> {
        @Mixin
        BinlogCommand.TaskOptions options = new BinlogCommand.TaskOptions();

        @Option(names = "--cutover-binlog-pos", paramLabel = "'(FILE, POS)'",
                description = "The binlog position, as DM writes it: '(mysql-bin.000001, 5989)'.")
        String pos;

        @Option(names = "--cutover-binlog-gtid", paramLabel = "GTID-SET",
                description = "The GTID set, for a source with GTIDs: 'uuid:1-30' or MariaDB's '0-1-30'.")
        String gtid;

        @Override
        public Integer call() throws Exception {
            if ((pos == null) == (gtid == null)) {
                throw new UsageError("validation update: give one of --cutover-binlog-pos '(mysql-bin.000001, 5989)'"
                        + " or --cutover-binlog-gtid GTID-SET");
            }
            String text;
            if (pos != null) {
                try {
                    text = BinlogPosition.parseDmText(pos).dmText();
                } catch (IllegalArgumentException e) {
                    throw new UsageError("validation update: --cutover-binlog-pos: " + e.getMessage());
                }
            } else {
                text = gtid.trim();
                if (text.isEmpty()) {
                    throw new UsageError("validation update: --cutover-binlog-gtid is empty");
                }
            }
            TaskConfig task = options.load();
            List<String> missing = onTarget(task, "update", (c, store) -> {
                List<String> none = new ArrayList<>();
                for (String id : options.sourceIds(task)) {
                    if (store.state(c, id) == null) {
                        none.add(id);
                        continue;
                    }
                    store.ensure(c);
                    store.setCutover(c, id, pos != null ? text : null, gtid != null ? text : null);
                }
                return none;
            });
            if (!missing.isEmpty()) {
                return print(result(false, "validator not found for task " + task.name() + ", source "
                        + String.join(", ", missing) + ": start it with jdm validation start"));
            }
            return print(result(true, "validation cutover set to " + text + "; a running task saves its "
                    + "validation there within check-interval of the sync passing it"));
        }
    }

    @Command(name = "show-error", mixinStandardHelpOptions = true,
            description = "The rows that kept differing on the target for row-error-delay, as dmctl validation "
                    + "show-error prints them.")
    static final class ShowError implements Callable<Integer> {
        @Mixin
        BinlogCommand.TaskOptions options = new BinlogCommand.TaskOptions();

        @Option(names = "--error", paramLabel = "unprocessed|ignored|all", defaultValue = "unprocessed",
                description = "Which error rows: unprocessed (new, the default), ignored, or all.")
        String error;

        @Override
        public Integer call() throws Exception {
            TaskConfig task = options.load();
            List<Integer> statuses = switch (error) {
                case "unprocessed" -> List.of(ValidatorStore.NEW);
                case "ignored" -> List.of(ValidatorStore.IGNORED);
                case "all" -> List.of();
                default -> throw new UsageError("validation show-error: --error must be unprocessed, ignored or all, "
                        + "got " + error);
            };
            List<Map<String, Object>> rows = onTarget(task, "show-error", (c, store) -> store.errors(c, statuses));
            rows.removeIf(r -> !options.sourceIds(task).contains(r.get("source")));
            Map<String, Object> out = result(true, "");
            out.put("error", rows);
            return print(out);
        }
    }

    /** What ignore-error, resolve-error and clear-error share: one error row by its id, or all. */
    abstract static class Operate implements Callable<Integer> {
        @Mixin
        BinlogCommand.TaskOptions options = new BinlogCommand.TaskOptions();

        @Parameters(index = "1", arity = "0..1", paramLabel = "ERROR-ID", description = "The error row's id.")
        Long id;

        @Option(names = "--all", description = "Every error row of the task.")
        boolean all;

        abstract String verb();

        /** The status the rows get; 0 deletes them. */
        abstract int status();

        @Override
        public Integer call() throws Exception {
            if ((id == null) == !all) {
                throw new UsageError("validation " + verb() + ": give an error id (from jdm validation show-error) "
                        + "or --all, not both");
            }
            TaskConfig task = options.load();
            int n = onTarget(task, verb(), (c, store) -> store.operate(c, status(), all ? null : id));
            if (n == 0 && !all) {
                return print(result(false, "no validation error " + id + " in task " + task.name()
                        + "; list them with jdm validation show-error --error all"));
            }
            return print(result(true, verb() + ": " + n + " error row(s)"));
        }
    }

    @Command(name = "ignore-error", mixinStandardHelpOptions = true,
            description = "Mark an error row (or all) ignored: counted apart, no longer unprocessed.")
    static final class IgnoreError extends Operate {
        @Override
        String verb() {
            return "ignore-error";
        }

        @Override
        int status() {
            return ValidatorStore.IGNORED;
        }
    }

    @Command(name = "resolve-error", mixinStandardHelpOptions = true,
            description = "Mark an error row (or all) resolved: the difference was mended by hand.")
    static final class ResolveError extends Operate {
        @Override
        String verb() {
            return "resolve-error";
        }

        @Override
        int status() {
            return ValidatorStore.RESOLVED;
        }
    }

    @Command(name = "clear-error", mixinStandardHelpOptions = true,
            description = "Delete an error row (or all) from the task's meta schema.")
    static final class ClearError extends Operate {
        @Override
        String verb() {
            return "clear-error";
        }

        @Override
        int status() {
            return 0;
        }
    }
}
