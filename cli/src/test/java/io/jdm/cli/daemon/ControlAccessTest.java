package io.jdm.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jdm.cli.TestTasks;
import io.jdm.common.config.Secret;
import io.jdm.common.config.StatusConfig;
import io.jdm.common.config.TaskConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Who may pause, resume and stop: with a token, only a request that carries it (401 otherwise); without
 * one, loopback only, and on any other address the verbs are off (403 and one line at start saying how
 * to turn them on). The GETs answer everyone, and never the token.
 */
class ControlAccessTest {
    private static final String TOKEN = "9f86d081884c7d659a2feaa0c55ad015";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final List<TaskOp> done = new CopyOnWriteArrayList<>();
    private final StatusProvider provider = new StatusProvider() {
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
            done.add(op);
            return Map.of("op", op.dmName, "result", true);
        }
    };

    @Test
    void withATokenEveryOperationNeedsIt() throws Exception {
        try (StatusServer s = StatusServer.start("token", new StatusConfig("127.0.0.1:0", Secret.of(TOKEN), Optional.empty()),
                provider)) {
            String base = "http://127.0.0.1:" + s.port();
            HttpResponse<String> none = post(base + "/tasks/pause", null);
            assertEquals(401, none.statusCode());
            assertEquals(ControlAccess.UNAUTHORIZED + "\n", none.body());
            assertEquals("Bearer realm=\"jdm\"", none.headers().firstValue("WWW-Authenticate").orElse(""));
            for (String wrong : List.of("Bearer " + TOKEN.substring(1), "Bearer " + TOKEN + "0", "Bearer ",
                    "Basic " + TOKEN, TOKEN, "Bearer " + TOKEN.toUpperCase())) {
                assertEquals(401, post(base + "/tasks/stop", wrong).statusCode(), wrong);
            }
            assertEquals(List.of(), done, "an operation ran without the token");

            assertEquals(200, post(base + "/tasks/pause", "Bearer " + TOKEN).statusCode());
            assertEquals(200, post(base + "/tasks/resume", "bearer " + TOKEN).statusCode());
            assertEquals(List.of(TaskOp.PAUSE, TaskOp.RESUME), done);

            HttpResponse<String> status = get(base + "/status");
            assertEquals(200, status.statusCode());
            assertEquals(200, get(base + "/metrics").statusCode());
            assertFalse(status.body().contains(TOKEN), status.body());
        }
    }

    @Test
    void onLoopbackWithoutATokenTheOperationsAreOpen() throws Exception {
        try (StatusServer s = StatusServer.start("loopback", StatusConfig.at("localhost:0"), provider)) {
            assertEquals(200, post("http://127.0.0.1:" + s.port() + "/tasks/pause", null).statusCode());
            assertEquals(List.of(TaskOp.PAUSE), done);
        }
    }

    @Test
    void onAnyOtherAddressWithoutATokenTheOperationsAreOffAndTheStartLineSaysSo() throws Exception {
        Logger log = (Logger) LoggerFactory.getLogger(StatusServer.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try (StatusServer s = StatusServer.start("wildcard", StatusConfig.at("0.0.0.0:0"), provider)) {
            String base = "http://127.0.0.1:" + s.port();
            for (TaskOp op : TaskOp.values()) {
                HttpResponse<String> r = post(base + "/tasks/" + op.path, null);
                assertEquals(403, r.statusCode(), op.path);
                assertEquals(ControlAccess.OFF + "\n", r.body());
                assertEquals(403, post(base + "/tasks/" + op.path, "Bearer " + TOKEN).statusCode(), op.path);
            }
            assertEquals(List.of(), done, "an operation ran on an open address without a token");
            assertEquals(200, get(base + "/status").statusCode());
            assertEquals(200, get(base + "/metrics").statusCode());
        } finally {
            log.detachAppender(lines);
        }
        List<String> started = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(1, started.size(), started.toString());
        assertEquals("WARN", lines.list.get(0).getLevel().toString());
        assertTrue(started.get(0).endsWith("/status, /metrics, the status page at / and the GETs of /api/v1; "
                + ControlAccess.OFF),
                started.get(0));
        assertTrue(ControlAccess.OFF.contains("status-token"), ControlAccess.OFF);
    }

    private static HttpResponse<String> post(String uri, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri)).POST(HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String uri) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(uri)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
