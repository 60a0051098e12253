package io.jdm.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * DM's {@code dmctl handle-error TASK [-s SOURCE] [-b POS] skip|replace|inject|revert|list [SQL…]}:
 * the same operators as {@code jdm binlog}, in the order DM's older verb takes them.
 */
@Command(name = "handle-error", mixinStandardHelpOptions = true,
        description = "DM's handle-error: jdm handle-error TASK.yaml skip|replace|inject|revert|list [SQL...], "
                + "the same as jdm binlog skip|replace|inject|revert|list (replace and inject take the statements "
                + "as the last arguments, separated by ;).")
final class HandleErrorCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TASK.yaml", description = "The task file.")
    Path taskFile;

    @Parameters(index = "1", paramLabel = "OPERATION", description = "skip, replace, inject, revert or list.")
    String operation;

    @Parameters(index = "2..*", paramLabel = "SQL", description = "replace and inject: the statements to run.")
    List<String> sql = new ArrayList<>();

    @Mixin
    SourceOptions sources = new SourceOptions();

    @Option(names = {"-s", "--source-id"}, paramLabel = "ID", description = "The source the statement is in.")
    String sourceId;

    @Option(names = {"-b", "--binlog-pos"}, paramLabel = "FILE:POS",
            description = "The statement's position (default: the DDL the target refused).")
    String binlogPos;

    @Override
    public Integer call() throws Exception {
        String op = operation.strip().toLowerCase(Locale.ROOT);
        if (op.equals("list")) {
            BinlogCommand.ListOperators list = new BinlogCommand.ListOperators();
            noStatements(op);
            options(list.options);
            return list.call();
        }
        BinlogCommand.AtPosition at = switch (op) {
            case "skip" -> new BinlogCommand.Skip();
            case "revert" -> new BinlogCommand.Revert();
            case "replace" -> new BinlogCommand.Replace();
            case "inject" -> new BinlogCommand.Inject();
            default -> throw new UsageError("handle-error: unknown operation " + operation
                    + "; use skip, replace, inject, revert or list");
        };
        if (at instanceof BinlogCommand.WithStatements w) {
            if (sql.isEmpty()) {
                throw new UsageError("handle-error " + op + ": give the statements to run after the operation, e.g. "
                        + "jdm handle-error TASK.yaml " + op + " \"ALTER TABLE t ...\"");
            }
            w.sql = new ArrayList<>(sql);
        } else {
            noStatements(op);
        }
        options(at.options);
        at.binlogPos = binlogPos;
        return at.call();
    }

    private void noStatements(String op) {
        if (!sql.isEmpty()) {
            throw new UsageError("handle-error " + op + ": takes no statements, got " + sql);
        }
    }

    private void options(BinlogCommand.TaskOptions o) {
        o.taskFile = taskFile;
        o.sources = sources;
        o.sourceId = sourceId;
    }
}
