package io.jdm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.daemon.StatusServer;
import io.jdm.cli.run.TargetStatus;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.FatalException;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jdm query-status}: {@code /status} of the running task. When nothing answers and the task
 * file is given, what the target holds for the task instead ({@link TargetStatus}: each source's
 * checkpoint, the DDL its sync stopped in, the binlog operators), exit 1: a sync that stopped at a
 * statement has exited, and that is when the question is asked.
 */
@Command(name = "status", aliases = "query-status", mixinStandardHelpOptions = true,
        description = "Print the status of a running jdm as dmctl's query-status prints it (JSON), or with "
                + "--metrics its Prometheus metrics. When no jdm answers and TASK.yaml is given, print what the "
                + "target holds for the task instead (checkpoints, the DDL its sync stopped in, binlog operators) "
                + "and exit 1.")
final class StatusCommand implements Callable<Integer> {
    @Mixin
    Daemon daemon;

    @Option(names = "--metrics", description = "Print /metrics instead of /status.")
    boolean metrics;

    @Option(names = "--text", description = "A few lines per source for a person instead of JSON: stage, checkpoint, "
            + "the statement the sync stopped at or retries and why, and the binlog operators.")
    boolean text;

    @Override
    public Integer call() throws IOException {
        if (metrics) {
            HttpResponse<String> resp = daemon.get("/metrics");
            System.out.println(resp.body());
            return resp.statusCode() == 200 ? ExitCode.OK : ExitCode.FAILED;
        }
        Optional<HttpResponse<String>> resp = daemon.getIfAnswered("/status");
        if (resp.isEmpty()) {
            TaskConfig task = daemon.task();
            if (task == null) {
                throw new FatalException(daemon.noAnswer() + ": start the task with 'jdm run TASK.yaml', or pass "
                        + "the task file (then the status shows what the target holds for a task that is not "
                        + "running) or --address of the running one");
            }
            print(StatusServer.json(TargetStatus.read(task, daemon.noAnswer())));
            return ExitCode.FAILED;
        }
        boolean ok = resp.get().statusCode() == 200;
        if (ok) {
            print(resp.get().body());
        } else {
            System.out.println(resp.get().body());
        }
        return ok ? ExitCode.OK : ExitCode.FAILED;
    }

    private void print(String json) throws IOException {
        System.out.println(text ? StatusText.render(new ObjectMapper().readTree(json)) : json);
    }
}
