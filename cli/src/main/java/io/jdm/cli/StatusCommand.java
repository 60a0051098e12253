package io.jdm.cli;

import io.jdm.common.config.TaskConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Print the status (or with --metrics the Prometheus metrics) of a running jdm daemon.")
final class StatusCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "TASK.yaml",
            description = "Task file whose status-addr to ask (default: --addr).")
    Path taskFile;

    @Mixin
    SourceOptions sources = new SourceOptions();

    @Option(names = "--addr", description = "host:port of the daemon (default ${DEFAULT-VALUE}).")
    String addr = "127.0.0.1:8261";

    @Option(names = "--metrics", description = "Print /metrics instead of /status.")
    boolean metrics;

    @Override
    public Integer call() throws Exception {
        if (taskFile != null) {
            TaskConfig task = TaskFiles.load(taskFile, sources);
            addr = task.statusAddr();
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + addr + (metrics ? "/metrics" : "/status")))
                .timeout(Duration.ofSeconds(10)).GET().build();
        try {
            HttpResponse<String> resp = client.send(req, HttpResponse.BodyHandlers.ofString());
            System.out.println(resp.body());
            return resp.statusCode() == 200 ? ExitCode.OK : ExitCode.FAILED;
        } catch (java.io.IOException e) {
            throw new io.jdm.common.error.FatalException("no jdm daemon answers at " + addr
                    + ": start one with 'jdm run TASK.yaml' or pass --addr");
        }
    }
}
