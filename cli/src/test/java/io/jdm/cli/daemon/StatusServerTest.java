package io.jdm.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.TestTasks;
import io.jdm.common.config.TaskConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusServerTest {
    private static final StatusProvider PROVIDER = new StatusProvider() {
        @Override
        public TaskConfig task() {
            return TestTasks.unrun("provided");
        }

        @Override
        public Map<String, Object> status() {
            return Map.of("result", true);
        }

        @Override
        public String metrics() {
            return "x 1\n";
        }

        @Override
        public Map<String, Object> operate(TaskOp op) {
            throw new TaskOpRefused("not here");
        }
    };

    @Test
    void closingAfterServingDoesNotHoldTheProcess() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        StatusServer server = StatusServer.start("close", "127.0.0.1:0", PROVIDER);
        URI status = URI.create("http://127.0.0.1:" + server.port() + "/status");
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(status).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode());

        long start = System.nanoTime();
        server.close();
        long millis = (System.nanoTime() - start) / 1_000_000;
        // The JDK's server used to wait out a whole second of grace here, at the end of every run.
        assertTrue(millis < 500, "close took " + millis + " ms");
        assertThrows(IOException.class, () -> client.send(HttpRequest.newBuilder(status).build(),
                HttpResponse.BodyHandlers.ofString()));
    }

    @Test
    void servesTheStatusPageAtRootAndUiWithItsOwnPolicy() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        try (StatusServer server = StatusServer.start("page", "127.0.0.1:0", PROVIDER)) {
            String base = "http://127.0.0.1:" + server.port();
            for (String path : new String[] {"/", "/ui"}) {
                HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, page.statusCode(), path);
                assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElse(""));
                String csp = page.headers().firstValue("Content-Security-Policy").orElse("");
                assertEquals(StatusPage.policy(page.body()), csp, "the policy allows the page served, by hash");
                assertTrue(csp.startsWith("default-src 'none';"), csp);
                assertTrue(csp.contains("script-src 'sha256-") && csp.contains("style-src 'sha256-"), csp);
                assertFalse(csp.contains("unsafe"), csp);
                assertTrue(page.body().contains("fetch(\"/status\""), "the page reads /status");
                assertFalse(page.body().contains("POST") || page.body().contains("/tasks/"), "the page only reads");
                assertFalse(page.body().matches("(?s).*(src|href)=\"(https?:)?//.*"), "nothing from the network");
            }
            assertEquals(404, client.send(HttpRequest.newBuilder(URI.create(base + "/nothing")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
            assertEquals(405, client.send(HttpRequest.newBuilder(URI.create(base + "/"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode());
        }
    }
}
