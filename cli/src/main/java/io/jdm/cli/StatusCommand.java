package io.jdm.cli;

import java.net.http.HttpResponse;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "status", aliases = "query-status", mixinStandardHelpOptions = true,
        description = "Print the status of a running jdm as dmctl's query-status prints it (JSON), or with "
                + "--metrics its Prometheus metrics.")
final class StatusCommand implements Callable<Integer> {
    @Mixin
    Daemon daemon;

    @Option(names = "--metrics", description = "Print /metrics instead of /status.")
    boolean metrics;

    @Override
    public Integer call() {
        HttpResponse<String> resp = daemon.get(metrics ? "/metrics" : "/status");
        System.out.println(resp.body());
        return resp.statusCode() == 200 ? ExitCode.OK : ExitCode.FAILED;
    }
}
