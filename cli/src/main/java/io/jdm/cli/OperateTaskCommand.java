package io.jdm.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.common.error.FatalException;
import java.net.http.HttpResponse;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * dmctl's pause-task, resume-task and stop-task against a running {@code jdm run}: each posts to
 * the daemon's {@code /tasks/<op>} and prints DM's OperateTaskResponse. A refusal (pausing or
 * resuming a task that is stopping) is one line and exit 2, and so is a token missing or refused.
 */
abstract class OperateTaskCommand implements Callable<Integer> {
    /** How long stop-task waits for the process to end: the units' own stop is bounded by 60 s. */
    private static final long STOP_WAIT_SECONDS = 90;

    @Mixin
    Daemon daemon;

    abstract String op();

    @Override
    public Integer call() throws InterruptedException {
        HttpResponse<String> resp = daemon.post("/tasks/" + op());
        if (resp.statusCode() == 409) {
            throw new UsageError(msg(resp.body()));
        }
        if (resp.statusCode() == 401) {
            throw new UsageError(unauthorized());
        }
        if (resp.statusCode() == 403) {
            throw new UsageError(op() + "-task: the jdm at " + daemon.address() + ": " + resp.body().strip());
        }
        if (resp.statusCode() != 200) {
            throw new FatalException(op() + "-task: the jdm at " + daemon.address() + " answered "
                    + resp.statusCode() + ": " + resp.body().strip());
        }
        System.out.println(resp.body());
        System.out.flush();
        return "stop".equals(op()) ? awaitExit() : ExitCode.OK;
    }

    private String unauthorized() {
        String source = daemon.tokenSource();
        return source.isEmpty()
                ? op() + "-task: the jdm at " + daemon.address() + " needs its status-token: give the task file that "
                        + "sets it, --token-file FILE or $" + Daemon.TOKEN_ENV
                : op() + "-task: the jdm at " + daemon.address() + " refused the token from " + source
                        + ": it is not the status-token that jdm was started with";
    }

    private static String msg(String body) {
        try {
            return new ObjectMapper().readTree(body).path("msg").asText(body.strip());
        } catch (JsonProcessingException e) {
            return body.strip();
        }
    }

    /** Returns once the process stopped answering, or fails when it still does after the wait. */
    private int awaitExit() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            if (daemon.gone()) {
                return ExitCode.OK;
            }
            Thread.sleep(200);
        }
        throw new FatalException("stop-task: the jdm at " + daemon.address() + " still runs after "
                + STOP_WAIT_SECONDS + "s; see its log");
    }

    @Command(name = "pause-task", mixinStandardHelpOptions = true,
            description = "Pause a running task in any unit: sync stops reading at a transaction boundary and "
                    + "its writers commit what they hold; the load stops after its current statement, committed "
                    + "with its checkpoint; the dump stops (resume-task dumps again).")
    static final class Pause extends OperateTaskCommand {
        @Override
        String op() {
            return "pause";
        }
    }

    @Command(name = "resume-task", mixinStandardHelpOptions = true,
            description = "Resume a paused task: sync and load from where they paused, a dump from scratch.")
    static final class Resume extends OperateTaskCommand {
        @Override
        String op() {
            return "resume";
        }
    }

    @Command(name = "stop-task", mixinStandardHelpOptions = true,
            description = "Stop a running task as SIGTERM does (drain the writers, store the checkpoints) and "
                    + "wait for its process to exit; 'jdm run' again resumes it.")
    static final class Stop extends OperateTaskCommand {
        @Override
        String op() {
            return "stop";
        }
    }
}
