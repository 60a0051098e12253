package io.jdm.cli.daemon;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.jdm.common.config.StatusConfig;
import io.jdm.common.config.StatusTls;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code GET /status}, {@code GET /metrics}, the page that shows {@code /status} live at
 * {@code GET /} ({@link StatusPage}), {@code POST /tasks/pause}, {@code /tasks/resume},
 * {@code /tasks/stop} and DM's OpenAPI under {@code /api/v1} ({@link OpenApi}) on one address
 * (127.0.0.1 by default). JSON is printed as dmctl and dm-master print it: four spaces of indent,
 * {@code "key": value}.
 *
 * <p>The GETs answer whoever reaches the address and show no secret (the task's passwords and
 * token never reach a status or a metric). The POSTs pass {@link ControlAccess} (the bearer token,
 * or loopback only, or off); every request passes {@link RequestLimits}. With {@code status-tls-cert}
 * the address speaks HTTPS only.
 */
public final class StatusServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
    /** As dmctl's jsonpb printer lays JSON out. */
    private static final DefaultPrettyPrinter DM_PRINTER = new DefaultPrettyPrinter(Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER).withArrayEmptySeparator("")
            .withObjectEmptySeparator(""))
            .withObjectIndenter(new DefaultIndenter("    ", "\n"))
            .withArrayIndenter(new DefaultIndenter("    ", "\n"));
    private static final ObjectWriter DM_JSON = new ObjectMapper().writer(DM_PRINTER);
    /** Connections the kernel queues until the server accepts them (see {@link RequestLimits} for open ones). */
    private static final int BACKLOG = 16;
    private final HttpServer server;
    private final ExecutorService executor;

    private StatusServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving.
     *
     * @param config the address ({@code host:port}; port 0 picks a free port) and the token, if any
     */
    public static StatusServer start(String task, StatusConfig config, StatusProvider provider) throws IOException {
        InetSocketAddress addr = parse(config.addr());
        RequestLimits.applyToJdk();
        HttpServer s = config.tls().isPresent() ? https(addr, config.tls().get()) : HttpServer.create(addr, BACKLOG);
        ControlAccess access = ControlAccess.of(config, s.getAddress());
        RequestLimits limits = new RequestLimits();
        ObjectWriter json = DM_JSON;
        s.createContext("/status", ex -> respond(ex, "application/json",
                () -> json.writeValueAsString(provider.status()))).getFilters().add(limits);
        s.createContext("/metrics", ex -> respond(ex, "text/plain; version=0.0.4", provider::metrics))
                .getFilters().add(limits);
        StatusPage page = StatusPage.load();
        s.createContext("/", page::serve).getFilters().add(limits);
        for (TaskOp op : TaskOp.values()) {
            HttpContext c = s.createContext("/tasks/" + op.path, ex -> operate(ex, json, provider, op));
            c.getFilters().add(limits);
            c.getFilters().add(access);
        }
        // its POSTs pass the access filter themselves: its GETs on the same context are open
        s.createContext(OpenApi.ROOT, new OpenApi(provider, access, json)).getFilters().add(limits);
        ExecutorService ex = RequestLimits.executor(task);
        s.setExecutor(ex);
        s.start();
        String where = (config.tls().isPresent() ? "https://" : "http://") + addr.getHostString() + ":" + s.getAddress().getPort();
        if (access.enabled()) {
            LOG.info("status endpoint on {}/status, /metrics, the status page at /, DM's OpenAPI at /api/v1 and "
                    + "/tasks/{pause,resume,stop} {}", where, access.describe());
        } else {
            LOG.warn("status endpoint on {}/status, /metrics, the status page at / and the GETs of /api/v1; {}", where,
                    ControlAccess.OFF);
        }
        return new StatusServer(s, ex);
    }

    /** The address alone, without a token: the task operations are open on loopback and off elsewhere. */
    public static StatusServer start(String task, String address, StatusProvider provider) throws IOException {
        return start(task, StatusConfig.at(address), provider);
    }

    private static HttpServer https(InetSocketAddress addr, StatusTls tls) throws IOException {
        HttpsServer s = HttpsServer.create(addr, BACKLOG);
        s.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()));
        return s;
    }

    /** {@code tree} as {@code /status} prints its answers: as dmctl prints JSON. */
    public static String json(Object tree) {
        try {
            return DM_JSON.writeValueAsString(tree);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON tree: " + e.getMessage(), e);
        }
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
            try {
                send(ex, 200, type, body.get());
            } catch (RuntimeException e) {
                send(ex, 500, "text/plain", "error: " + e.getMessage());
            }
        }
    }

    /** A task operation: DM's OperateTaskResponse, 409 with result false when the task refuses it. */
    private static void operate(HttpExchange ex, ObjectWriter json, StatusProvider provider, TaskOp op)
            throws IOException {
        try (ex) {
            if (!"POST".equals(ex.getRequestMethod())) {
                ex.sendResponseHeaders(405, -1);
                return;
            }
            try {
                send(ex, 200, "application/json", json.writeValueAsString(provider.operate(op)));
            } catch (TaskOpRefused e) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("op", op.dmName);
                m.put("result", false);
                m.put("msg", e.getMessage());
                m.put("sources", List.of());
                send(ex, 409, "application/json", json.writeValueAsString(m));
            } catch (RuntimeException e) {
                send(ex, 500, "text/plain", "error: " + e.getMessage());
                return;
            }
        }
        provider.afterOperate(op);
    }

    static void send(HttpExchange ex, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(code, bytes.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(bytes);
        }
    }

    @Override
    public void close() {
        // No grace period: the JDK's server waits out the whole delay even when no exchange is in
        // flight (fixed only in JDK 21), which kept every finished `jdm run` alive one more second.
        // A scrape that comes as the task ends gets a closed connection; the numbers it wanted are
        // in the final log line.
        server.stop(0);
        executor.shutdownNow();
    }
}
