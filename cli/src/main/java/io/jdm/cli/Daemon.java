package io.jdm.cli;

import io.jdm.common.config.Secret;
import io.jdm.common.config.StatusConfig;
import io.jdm.common.config.StatusTls;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.Pem;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Where a running {@code jdm run} answers (a task file's status-addr, or {@code --address}) and the
 * requests the dmctl-like commands send it. Used as a picocli mixin.
 *
 * <p>Task operations carry the bearer token the running jdm was started with, read as it reads it:
 * {@code --token-file}, else the task file's {@code status-token} or {@code status-token-file}, else
 * the environment variable {@value #TOKEN_ENV}. There is no option for the token itself, as a command
 * line is visible to every user of the machine.
 *
 * <p>HTTPS when the task file sets {@code status-tls-cert} (its certificates are the ones trusted)
 * or when {@code --tls-ca} names the certificates to trust. The JDK's client checks that the
 * certificate names the host connected to; an address that binds every interface (0.0.0.0) is
 * reached at 127.0.0.1.
 */
final class Daemon {
    /** The variable the deployment examples name in {@code status-token: ${JDM_STATUS_TOKEN}}. */
    static final String TOKEN_ENV = "JDM_STATUS_TOKEN";

    @Parameters(index = "0", arity = "0..1", paramLabel = "TASK.yaml",
            description = "Task file whose status-addr (and status-token) to use (default: --address).")
    Path taskFile;

    @Option(names = {"--address", "--addr"}, paramLabel = "HOST:PORT",
            description = "Address of the running jdm (default ${DEFAULT-VALUE}).")
    String address = TaskConfig.DEFAULT_STATUS_ADDR;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "File holding the token pause/resume/stop send (default: the task file's status-token "
                    + "or status-token-file, else $" + TOKEN_ENV + ").")
    Path tokenFile;

    @Option(names = "--tls-ca", paramLabel = "FILE",
            description = "Speak HTTPS and trust these PEM certificates: the running jdm's status-tls-cert or the "
                    + "CA that signed it (default: the task file's status-tls-cert, if it sets one).")
    Path tlsCa;

    @Mixin
    SourceOptions sources = new SourceOptions();

    /** Built on first use: every command carries this mixin, and a client sets up TLS (a fifth of a second). */
    private HttpClient client;
    private TaskConfig task;
    private List<X509Certificate> trusted;

    String address() {
        return taskFile == null ? address : fromTask().addr();
    }

    /** Where the token sent came from, for the line that says it was refused; empty when none is sent. */
    String tokenSource() {
        if (tokenFile != null) {
            return "--token-file " + tokenFile;
        }
        if (taskFile != null && fromTask().hasToken()) {
            return "the status-token of " + taskFile;
        }
        String env = System.getenv(TOKEN_ENV);
        return env != null && !env.isBlank() ? "$" + TOKEN_ENV : "";
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).GET().build());
    }

    /** A task operation; a pause waits for the writers to commit, so it may take a while. */
    HttpResponse<String> post(String path) {
        HttpRequest.Builder req = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(90))
                .POST(HttpRequest.BodyPublishers.noBody());
        Secret token = token();
        if (!token.isEmpty()) {
            req.header("Authorization", "Bearer " + token.reveal());
        }
        return send(req.build());
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

    private StatusConfig fromTask() {
        return task().status();
    }

    /** The task file's task, read once (loading it again would print its warnings again); null without one. */
    TaskConfig task() {
        if (taskFile != null && task == null) {
            task = TaskFiles.load(taskFile, sources);
        }
        return task;
    }

    private Secret token() {
        if (tokenFile != null) {
            try {
                return Secret.of(Files.readString(tokenFile).strip());
            } catch (NoSuchFileException e) {
                throw new UsageError("--token-file " + tokenFile + ": no such file");
            } catch (IOException e) {
                throw new UsageError("--token-file " + tokenFile + ": cannot read it: " + e.getClass().getSimpleName());
            }
        }
        if (taskFile != null && fromTask().hasToken()) {
            return fromTask().token();
        }
        String env = System.getenv(TOKEN_ENV);
        return env == null ? Secret.EMPTY : Secret.of(env.strip());
    }

    private URI uri(String path) {
        return URI.create((trusted().isEmpty() ? "http://" : "https://") + reachable(address()) + path);
    }

    /** A wildcard address binds every interface; this machine reaches it at 127.0.0.1. */
    static String reachable(String address) {
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? address : address.substring(0, colon);
        boolean any = host.isEmpty() || host.equals("0.0.0.0") || host.equals("[::]") || host.equals("::");
        return any ? "127.0.0.1" + address.substring(colon) : address;
    }

    /** The certificates an HTTPS connection trusts; empty for plain HTTP. */
    private List<X509Certificate> trusted() {
        if (trusted == null) {
            trusted = readTrusted();
        }
        return trusted;
    }

    private List<X509Certificate> readTrusted() {
        if (tlsCa != null) {
            try {
                return Pem.certificates(Files.readAllBytes(tlsCa));
            } catch (NoSuchFileException e) {
                throw new UsageError("--tls-ca " + tlsCa + ": no such file");
            } catch (IOException | IllegalArgumentException e) {
                throw new UsageError("--tls-ca " + tlsCa + ": " + (e instanceof IOException
                        ? "cannot read it: " + e.getClass().getSimpleName() : e.getMessage()));
            }
        }
        return taskFile == null ? List.of() : fromTask().tls().map(StatusTls::chain).orElse(List.of());
    }

    private HttpResponse<String> send(HttpRequest req) {
        return answer(req).orElseThrow(() -> new FatalException(noAnswer() + ": start the task with 'jdm run "
                + "TASK.yaml', or pass the task file or --address of the running one"));
    }

    /** As {@link #get}, or empty when nothing answers at the address: no process runs the task there. */
    Optional<HttpResponse<String>> getIfAnswered(String path) {
        return answer(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).GET().build());
    }

    /** "no jdm answers at ADDRESS". */
    String noAnswer() {
        return "no jdm answers at " + address();
    }

    private Optional<HttpResponse<String>> answer(HttpRequest req) {
        try {
            return Optional.of(client().send(req, HttpResponse.BodyHandlers.ofString()));
        } catch (SSLException e) {
            throw new FatalException("TLS with the jdm at " + address() + " failed: " + e.getMessage() + "; its "
                    + "certificate must be the trusted one (status-tls-cert, or signed by --tls-ca) and name the host "
                    + "connected to");
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FatalException("interrupted while asking the jdm at " + address());
        }
    }

    private HttpClient client() {
        if (client == null) {
            HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3));
            List<X509Certificate> trusted = trusted();
            if (!trusted.isEmpty()) {
                b.sslContext(StatusTls.trusting(trusted));
            }
            client = b.build();
        }
        return client;
    }
}
