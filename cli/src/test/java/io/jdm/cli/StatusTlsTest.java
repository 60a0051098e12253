package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.JdmCommandLineTest.Run;
import io.jdm.cli.daemon.StatusProvider;
import io.jdm.cli.daemon.StatusServer;
import io.jdm.cli.daemon.TaskOp;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.embedded.TestCertificates;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * status-addr with status-tls-cert: HTTPS only; the jdm commands that read the task file trust its
 * certificate and send its token, {@code --tls-ca} trusts a CA for {@code --address}, and a certificate
 * from another CA or one that does not name the host connected to is refused in one line.
 */
class StatusTlsTest {
    private static final String TOKEN = "5e884898da28047151d0e56f8dc62927";

    @TempDir
    Path dir;

    private final List<TaskOp> done = new CopyOnWriteArrayList<>();
    private final StatusProvider provider = new StatusProvider() {
        @Override
        public TaskConfig task() {
            return TestTasks.unrun("provided");
        }

        @Override
        public Map<String, Object> status() {
            return Map.of("result", true, "msg", "tls");
        }

        @Override
        public String metrics() {
            return "x 1\n";
        }

        @Override
        public Map<String, Object> operate(TaskOp op) {
            done.add(op);
            return Map.of("op", op.dmName, "result", true);
        }
    };

    @Test
    void httpsOnlyTrustedByTheTaskFileOrByTlsCa() throws Exception {
        TestCertificates.copyTo(dir);
        Files.writeString(dir.resolve("token"), TOKEN);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path task = Files.writeString(dir.resolve("task.yaml"), String.join("\n",
                "name: tls",
                "task-mode: all",
                "status-addr: \"0.0.0.0:" + port + "\"",
                "status-token-file: token",
                "status-tls-cert: server.pem",
                "status-tls-key: server.key",
                "target-database: {host: 127.0.0.1, user: root}",
                "mysql-instances: [{source-id: s1, from: {host: 127.0.0.1, user: root}}]",
                ""));
        TaskConfig config = new TaskConfigLoader().load(task);
        try (StatusServer server = StatusServer.start("tls", config.status(), provider)) {
            Run status = JdmCommandLineTest.run("query-status", task.toString());
            assertEquals(0, status.code(), status.err());
            assertTrue(status.out().contains("\"msg\": \"tls\""), status.out());
            Run paused = JdmCommandLineTest.run("pause-task", task.toString());
            assertEquals(0, paused.code(), paused.err());
            assertEquals(List.of(TaskOp.PAUSE), done);

            String address = "127.0.0.1:" + port;
            Run byCa = JdmCommandLineTest.run("query-status", "--address", address, "--tls-ca",
                    dir.resolve("ca.pem").toString());
            assertEquals(0, byCa.code(), byCa.err());

            Run otherCa = JdmCommandLineTest.run("query-status", "--address", address, "--tls-ca",
                    dir.resolve("other-ca.pem").toString());
            assertEquals(1, otherCa.code());
            assertTrue(otherCa.err().lines().anyMatch(l -> l.startsWith("jdm: TLS with the jdm at " + address + " failed: "))
                    && otherCa.err().contains("certification path"), otherCa.err());
            String unnamed = "127.0.0.2:" + port; // reaches the same server; the certificate names 127.0.0.1
            Run wrongHost = JdmCommandLineTest.run("query-status", "--address", unnamed, "--tls-ca",
                    dir.resolve("ca.pem").toString());
            assertEquals(1, wrongHost.code());
            assertTrue(wrongHost.err().lines().anyMatch(l -> l.startsWith("jdm: TLS with the jdm at " + unnamed + " failed: "))
                    && wrongHost.err().contains("matching IP address 127.0.0.2"), wrongHost.err());

            HttpClient plain = HttpClient.newHttpClient();
            assertThrows(IOException.class, () -> plain.send(HttpRequest.newBuilder(URI.create("http://" + address
                    + "/status")).build(), HttpResponse.BodyHandlers.ofString()));
            assertEquals(List.of(TaskOp.PAUSE), done);
        }
    }
}
