package io.jdm.cli.daemon;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import io.jdm.common.util.NamedThreadFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What one client can hold of the status endpoint. The JDK's server reads a request's line and
 * headers on an executor thread, so a client that never finishes its request holds that thread; these
 * bounds free it and keep {@code /status} answering meanwhile:
 *
 * <ul>
 *   <li>{@value #MAX_CONNECTIONS} connections at most, and as many threads, so that slow requests
 *       cannot take the thread a probe's request needs while connections are left;
 *   <li>a request's line, headers and body must arrive within {@value #MAX_REQUEST_SECONDS} s (a probe
 *       or a scrape sends them in one packet), after which its connection is closed;
 *   <li>an answer must be written within {@value #MAX_RESPONSE_SECONDS} s, more than a pause may take
 *       (the client waits 90 s);
 *   <li>{@value #MAX_HEADERS} headers, {@value #MAX_HEADER_BYTES} bytes of them, at most; a body of at
 *       most {@value #MAX_BODY_BYTES} bytes (only the OpenAPI's start and stop read one, of a few
 *       fields), else 413.
 * </ul>
 *
 * The JDK reads its limits from system properties once, when its server class loads; they are set here,
 * before the first server is created, unless the command line set them already ({@code -D}).
 */
final class RequestLimits extends Filter {
    static final int MAX_CONNECTIONS = 32;
    static final int MAX_REQUEST_SECONDS = 10;
    static final int MAX_RESPONSE_SECONDS = 120;
    static final int MAX_HEADERS = 64;
    static final int MAX_HEADER_BYTES = 16 * 1024;
    static final int MAX_BODY_BYTES = 64 * 1024;
    /** Idle keep-alive connections kept, and for how long; the JDK's 30 s, fewer of them. */
    private static final int MAX_IDLE_CONNECTIONS = 8;
    private static final int IDLE_SECONDS = 30;
    /**
     * How often idle connections are looked at, and connections accepted that never sent a byte (closed
     * after the request time): the JDK's 10 s would let 32 silent connections shut /status out for 20 s.
     */
    private static final int IDLE_CHECK_MILLIS = 1000;
    static final String TOO_LARGE = "request body larger than " + MAX_BODY_BYTES + " bytes; no endpoint reads one "
            + "that large";

    private static final Map<String, String> JDK_LIMITS = Map.of(
            "jdk.httpserver.maxConnections", String.valueOf(MAX_CONNECTIONS),
            "sun.net.httpserver.maxReqTime", String.valueOf(MAX_REQUEST_SECONDS),
            "sun.net.httpserver.maxRspTime", String.valueOf(MAX_RESPONSE_SECONDS),
            "sun.net.httpserver.maxReqHeaders", String.valueOf(MAX_HEADERS),
            "sun.net.httpserver.maxReqHeaderSize", String.valueOf(MAX_HEADER_BYTES),
            "sun.net.httpserver.maxIdleConnections", String.valueOf(MAX_IDLE_CONNECTIONS),
            "sun.net.httpserver.idleInterval", String.valueOf(IDLE_SECONDS),
            "sun.net.httpserver.clockTick", String.valueOf(IDLE_CHECK_MILLIS));

    /** Sets the JDK's limits; call before the first server of the process is created. */
    static void applyToJdk() {
        JDK_LIMITS.forEach((k, v) -> {
            if (System.getProperty(k) == null) {
                System.setProperty(k, v);
            }
        });
    }

    /** One thread per connection the server admits; idle threads end after a while. */
    static ThreadPoolExecutor executor(String task) {
        ThreadPoolExecutor e = new ThreadPoolExecutor(MAX_CONNECTIONS, MAX_CONNECTIONS, IDLE_SECONDS, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(MAX_CONNECTIONS), new NamedThreadFactory(task, "daemon", "http", true));
        e.allowCoreThreadTimeOut(true);
        return e;
    }

    /**
     * 413 for a body over the limit: at once when its length says so, else once that many bytes were
     * read of a chunked one. A chunked body within the limit is handed on as it was read.
     */
    @Override
    public void doFilter(HttpExchange ex, Chain chain) throws IOException {
        if (declaredLength(ex) > MAX_BODY_BYTES || readBeyondLimit(ex)) {
            ex.getResponseHeaders().set("Connection", "close");
            try (ex) {
                StatusServer.send(ex, 413, "text/plain; charset=utf-8", TOO_LARGE + "\n");
            }
            return;
        }
        chain.doFilter(ex);
    }

    private static long declaredLength(HttpExchange ex) {
        String length = ex.getRequestHeaders().getFirst("Content-Length");
        try {
            return length == null ? -1 : Long.parseLong(length.strip());
        } catch (NumberFormatException e) {
            return -1; // the JDK answers 400 to such a request before any filter sees it
        }
    }

    private static boolean readBeyondLimit(HttpExchange ex) throws IOException {
        if (ex.getRequestHeaders().getFirst("Content-Length") != null) {
            return false;
        }
        InputStream in = ex.getRequestBody();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) >= 0; ) {
            body.write(buf, 0, n);
            if (body.size() > MAX_BODY_BYTES) {
                return true;
            }
        }
        ex.setStreams(new ByteArrayInputStream(body.toByteArray()), null);
        return false;
    }

    @Override
    public String description() {
        return "request body at most " + MAX_BODY_BYTES + " bytes";
    }
}
