package io.jdm.cli.daemon;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.jdm.common.util.NamedThreadFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Serves {@code GET /status} and {@code GET /metrics} on one address (127.0.0.1 by default). */
public final class StatusServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
    private final HttpServer server;
    private final ExecutorService executor;

    private StatusServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving.
     *
     * @param address {@code host:port}; port 0 picks a free port
     */
    public static StatusServer start(String task, String address, StatusProvider provider) throws IOException {
        InetSocketAddress addr = parse(address);
        HttpServer s = HttpServer.create(addr, 16);
        ObjectMapper json = new ObjectMapper();
        s.createContext("/status", ex -> respond(ex, "application/json",
                () -> json.writerWithDefaultPrettyPrinter().writeValueAsString(provider.status())));
        s.createContext("/metrics", ex -> respond(ex, "text/plain; version=0.0.4", provider::metrics));
        ExecutorService ex = Executors.newFixedThreadPool(2, new NamedThreadFactory(task, "daemon", "http", true));
        s.setExecutor(ex);
        s.start();
        LOG.info("status endpoint on http://{}:{}/status and /metrics", addr.getHostString(), s.getAddress().getPort());
        return new StatusServer(s, ex);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    static InetSocketAddress parse(String address) {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("status-addr must be host:port, got " + address);
        }
        String host = address.substring(0, colon);
        int port = Integer.parseInt(address.substring(colon + 1));
        return new InetSocketAddress(host.isEmpty() ? "127.0.0.1" : host, port);
    }

    interface Body {
        String get() throws IOException;
    }

    private static void respond(HttpExchange ex, String type, Body body) throws IOException {
        try (ex) {
            if (!"GET".equals(ex.getRequestMethod())) {
                ex.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes;
            int code = 200;
            try {
                bytes = body.get().getBytes(StandardCharsets.UTF_8);
            } catch (RuntimeException e) {
                bytes = ("error: " + e.getMessage()).getBytes(StandardCharsets.UTF_8);
                code = 500;
            }
            ex.getResponseHeaders().set("Content-Type", type);
            ex.sendResponseHeaders(code, bytes.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(1);
        executor.shutdownNow();
    }
}
