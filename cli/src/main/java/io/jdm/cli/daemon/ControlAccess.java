package io.jdm.cli.daemon;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import io.jdm.common.config.StatusConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * Who may pause, resume and stop the task over HTTP ({@code POST /tasks/*} and the POSTs of
 * {@code /api/v1}), decided once at start:
 *
 * <ul>
 *   <li>a {@code status-token} is configured: every request must carry it as
 *       {@code Authorization: Bearer <token>}, else 401;
 *   <li>no token and a loopback address: open, as only this machine reaches it;
 *   <li>no token and any other address ({@code 0.0.0.0}, a pod's IP): off, every request 403 with the
 *       line that says how to turn them on. Whoever reaches the port could otherwise stop the task.
 * </ul>
 *
 * Tokens are compared by their SHA-256 digests with {@link MessageDigest#isEqual}, which takes the same
 * time wherever the digests differ; comparing digests, not the tokens, hides the token's length too.
 */
final class ControlAccess extends Filter {
    static final String OFF = "pause, resume and stop are off: status-addr is not a loopback address and the task "
            + "sets no token; set status-token: \"${JDM_STATUS_TOKEN}\" or status-token-file in the task file and "
            + "restart jdm";
    static final String UNAUTHORIZED = "missing or wrong bearer token: send Authorization: Bearer <the task's "
            + "status-token>";
    private static final String BEARER = "bearer ";

    private enum Mode { TOKEN, LOOPBACK, OFF }

    private final Mode mode;
    private final byte[] digest;

    private ControlAccess(Mode mode, byte[] digest) {
        this.mode = mode;
        this.digest = digest;
    }

    /** @param bound the address the server listens on (a host name resolved, a port 0 chosen) */
    static ControlAccess of(StatusConfig config, InetSocketAddress bound) {
        if (config.hasToken()) {
            return new ControlAccess(Mode.TOKEN, sha256(config.token().reveal()));
        }
        boolean loopback = bound.getAddress() != null && bound.getAddress().isLoopbackAddress();
        return new ControlAccess(loopback ? Mode.LOOPBACK : Mode.OFF, null);
    }

    /** False when the verbs are off, which the start line says as a warning. */
    boolean enabled() {
        return mode != Mode.OFF;
    }

    /** How the start line describes the verbs. */
    String describe() {
        return switch (mode) {
            case TOKEN -> "(/tasks/* and the POSTs of /api/v1 need the status-token)";
            case LOOPBACK -> "(/tasks/* and the POSTs of /api/v1 without a token: loopback only)";
            case OFF -> "";
        };
    }

    @Override
    public void doFilter(HttpExchange ex, Chain chain) throws IOException {
        switch (mode) {
            case OFF -> refuse(ex, 403, OFF);
            case TOKEN -> {
                if (presented(ex)) {
                    chain.doFilter(ex);
                } else {
                    ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"jdm\"");
                    refuse(ex, 401, UNAUTHORIZED);
                }
            }
            case LOOPBACK -> chain.doFilter(ex);
        }
    }

    private boolean presented(HttpExchange ex) {
        String header = ex.getRequestHeaders().getFirst("Authorization");
        if (header == null || header.length() <= BEARER.length()
                || !header.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            return false;
        }
        return MessageDigest.isEqual(digest, sha256(header.substring(BEARER.length()).strip()));
    }

    private static void refuse(HttpExchange ex, int code, String line) throws IOException {
        try (ex) {
            StatusServer.send(ex, code, "text/plain; charset=utf-8", line + "\n");
        }
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    @Override
    public String description() {
        return "who may use /tasks/* and the POSTs of /api/v1";
    }
}
