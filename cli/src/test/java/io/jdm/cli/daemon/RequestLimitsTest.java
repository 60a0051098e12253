package io.jdm.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.TestTasks;
import io.jdm.common.config.Secret;
import io.jdm.common.config.StatusConfig;
import io.jdm.common.config.TaskConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * What one client can hold of the endpoint: a body over the limit is answered 413 without being read,
 * and requests that never finish neither stop {@code /status} from answering at once nor stay open past
 * the request time limit. Connections past the bound are closed at once; silent ones, once the
 * request time is up. The tests wait out the request time limit each on a server of its own, side by side.
 */
class RequestLimitsTest {
    private static final String TOKEN = "a3f1c2e4b5d6978812345678deadbeef";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
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
            return Map.of("op", op.dmName, "result", true);
        }
    };

    private StatusServer server;
    private final List<Socket> sockets = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = StatusServer.start("limits", new StatusConfig("127.0.0.1:0", Secret.of(TOKEN), Optional.empty()), PROVIDER);
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        server.close();
    }

    @Test
    void aBodyOverTheLimitIs413WhateverItsFraming() throws IOException {
        int limit = RequestLimits.MAX_BODY_BYTES;
        // declared: answered before the body is sent
        String declared = exchange("POST /tasks/pause HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                + "\r\nContent-Length: " + (16 * limit) + "\r\n\r\n" + "x".repeat(100));
        assertTrue(declared.startsWith("HTTP/1.1 413 "), declared);
        assertTrue(declared.endsWith("\r\n\r\n" + RequestLimits.TOO_LARGE + "\n"), declared);
        // on a GET as well, and before the token is asked for
        assertTrue(exchange("GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: " + (limit + 1) + "\r\n\r\n")
                .startsWith("HTTP/1.1 413 "));
        // chunked: read up to the limit, then refused
        StringBuilder chunked = new StringBuilder("POST /tasks/pause HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + TOKEN + "\r\nTransfer-Encoding: chunked\r\n\r\n");
        String chunk = "y".repeat(4096);
        for (int i = 0; i <= limit / chunk.length(); i++) {
            chunked.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        String big = exchange(chunked + "0\r\n\r\n");
        assertTrue(big.startsWith("HTTP/1.1 413 "), big);
        // one chunk less is within the limit and reaches the operation
        String fits = exchange(chunked.substring(0, chunked.length() - chunk.length() - 8) + "0\r\n\r\n");
        assertTrue(fits.startsWith("HTTP/1.1 200 "), fits);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT) // the class ends when both have: no other class overlaps
    void requestsThatNeverFinishDoNotHoldStatusAndAreClosedAfterTheRequestTimeLimit() throws Exception {
        List<Socket> slow = new ArrayList<>();
        for (int i = 0; i < 8; i++) { // headers that never end, and a body that never comes
            slow.add(open(i % 2 == 0 ? "GET /status HTTP/1.1\r\nHost: x\r\nX-Slow: "
                    : "POST /tasks/pause HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n"));
        }
        Socket oversized = open("POST /tasks/stop HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\nzz");
        long start = System.nanoTime();
        assertTrue(read(oversized).startsWith("HTTP/1.1 413 "));
        for (int i = 0; i < 5; i++) {
            long t = System.nanoTime();
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                    + "/status")).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t);
            assertTrue(millis < 1000, "/status took " + millis + " ms beside " + slow.size() + " stalled requests");
        }
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < RequestLimits.MAX_REQUEST_SECONDS,
                "the stalled requests were closed before /status was asked: the test proves nothing");

        for (Socket s : slow) { // the JDK checks the request time once a second
            s.setSoTimeout((RequestLimits.MAX_REQUEST_SECONDS + 5) * 1000);
            assertEquals("", read(s), "a stalled request was answered");
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertTrue(seconds <= RequestLimits.MAX_REQUEST_SECONDS + 3, "closed after " + seconds + " s");
        }
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT) // the class ends when both have: no other class overlaps
    void connectionsOverTheBoundAreClosedAtOnceAndSilentOnesAfterTheRequestTimeLimit() throws Exception {
        List<Socket> silent = new ArrayList<>();
        for (int i = 0; i < RequestLimits.MAX_CONNECTIONS + 8; i++) {
            silent.add(open(""));
        }
        long start = System.nanoTime();
        assertTrue(status().isEmpty(), "a connection past the bound was served");
        long served = -1;
        while (served < 0 && TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)
                < RequestLimits.MAX_REQUEST_SECONDS + 5) {
            served = "200".equals(status().orElse("")) ? System.nanoTime() : -1;
            Thread.sleep(200);
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(served - start);
        assertTrue(served > 0 && seconds <= RequestLimits.MAX_REQUEST_SECONDS + 2,
                "/status answered again only after " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)
                        + " s, or never");
        for (Socket s : silent) {
            assertEquals("", read(s), "a silent connection was answered");
        }
    }

    /** The status code of {@code GET /status}, empty when the connection was refused or closed. */
    private Optional<String> status() {
        try {
            return Optional.of(String.valueOf(HTTP.send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + server.port() + "/status")).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Sends {@code request} on a new connection and reads the answer. */
    private String exchange(String request) throws IOException {
        return read(open(request));
    }

    private Socket open(String bytes) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
        sockets.add(s);
        s.setSoTimeout(5000);
        OutputStream out = s.getOutputStream();
        out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return s;
    }

    /** What the server sends until it closes the connection, or until the answer's body is complete. */
    private static String read(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder b = new StringBuilder();
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                b.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                if (complete(b)) {
                    break;
                }
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer and no close within " + s.getSoTimeout() + " ms: " + b, e);
        } catch (IOException reset) {
            // a connection the server closed while data was still unread ends in a reset: that is a close
        }
        return b.toString();
    }

    private static boolean complete(StringBuilder response) {
        int end = response.indexOf("\r\n\r\n");
        if (end < 0) {
            return false;
        }
        String headers = response.substring(0, end).toLowerCase();
        int at = headers.indexOf("content-length: ");
        if (at < 0) {
            return false;
        }
        int length = Integer.parseInt(headers.substring(at + 16).split("\r\n")[0].strip());
        return response.length() - end - 4 >= length;
    }
}
