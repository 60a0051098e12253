package io.jdm.cli;

import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.FatalException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Where a running {@code jdm run} answers (a task file's status-addr, or {@code --address}) and the
 * requests the dmctl-like commands send it. Used as a picocli mixin.
 */
final class Daemon {
    @Parameters(index = "0", arity = "0..1", paramLabel = "TASK.yaml",
            description = "Task file whose status-addr to use (default: --address).")
    Path taskFile;

    @Option(names = {"--address", "--addr"}, paramLabel = "HOST:PORT",
            description = "Address of the running jdm (default ${DEFAULT-VALUE}).")
    String address = TaskConfig.DEFAULT_STATUS_ADDR;

    @Mixin
    SourceOptions sources = new SourceOptions();

    /** Built on first use: every command carries this mixin, and a client sets up TLS (a fifth of a second). */
    private HttpClient client;

    String address() {
        return taskFile == null ? address : TaskFiles.load(taskFile, sources).statusAddr();
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).GET().build());
    }

    /** A task operation; a pause waits for the writers to commit, so it may take a while. */
    HttpResponse<String> post(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(90))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    /** True once nothing answers at the address any more (the process has ended). */
    boolean gone() {
        try {
            client().send(HttpRequest.newBuilder(uri("/status")).timeout(Duration.ofSeconds(3)).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
            return false;
        } catch (IOException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private URI uri(String path) {
        return URI.create("http://" + address() + path);
    }

    private HttpResponse<String> send(HttpRequest req) {
        try {
            return client().send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new FatalException("no jdm answers at " + address() + ": start the task with 'jdm run TASK.yaml', "
                    + "or pass the task file or --address of the running one");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FatalException("interrupted while asking the jdm at " + address());
        }
    }

    private HttpClient client() {
        if (client == null) {
            client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
        }
        return client;
    }
}
