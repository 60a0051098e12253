package io.jdm.cli.daemon;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /} and {@code /ui}: one self-contained HTML page that polls {@code /status} every two
 * seconds and draws it (stages, progress with an ETA, lag and rows/s, shard locks, the statement a
 * sync stopped at or retries, binlog operators, errors and the command to run next). It reads only
 * {@code /status}, so it shows nothing {@code /status} does not.
 *
 * <p>The page's inline style and script are allowed by their SHA-256 in the Content-Security-Policy,
 * not by {@code 'unsafe-inline'}: the hashes are taken from the resource when the class loads, so
 * they cannot go stale, and a value of {@code /status} that somehow reached the page as markup
 * (a table named {@code <script>…}) still could not run. Everything else is shut: no other origin,
 * no frames, no forms, and only {@code /status} to fetch.
 */
final class StatusPage {
    static final String RESOURCE = "status-page.html";
    /** The paths the page answers on; the JDK server hands "/" every path no other context took. */
    static final List<String> PATHS = List.of("/", "/ui");
    private static final Pattern INLINE = Pattern.compile("<(script|style)>(.*?)</\\1>", Pattern.DOTALL);

    private final byte[] html;
    private final String csp;

    private StatusPage(byte[] html, String csp) {
        this.html = html;
        this.csp = csp;
    }

    static StatusPage load() {
        try (InputStream in = StatusPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing from the jdm jar");
            }
            byte[] html = in.readAllBytes();
            return new StatusPage(html, policy(new String(html, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The policy for {@code page}: its own inline script and style, by hash, and nothing else. */
    static String policy(String page) {
        List<String> scripts = new ArrayList<>();
        List<String> styles = new ArrayList<>();
        Matcher m = INLINE.matcher(page);
        while (m.find()) {
            (m.group(1).equals("script") ? scripts : styles).add("'sha256-" + sha256(m.group(2)) + "'");
        }
        return "default-src 'none'; script-src " + String.join(" ", scripts) + "; style-src "
                + String.join(" ", styles) + "; connect-src 'self'; img-src 'self'; base-uri 'none'; "
                + "form-action 'none'; frame-ancestors 'none'";
    }

    private static String sha256(String text) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    String policy() {
        return csp;
    }

    void serve(HttpExchange ex) throws IOException {
        try (ex) {
            if (!PATHS.contains(ex.getRequestURI().getPath())) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            if (!"GET".equals(ex.getRequestMethod())) {
                ex.sendResponseHeaders(405, -1);
                return;
            }
            ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            ex.getResponseHeaders().set("Content-Security-Policy", csp);
            ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            ex.getResponseHeaders().set("Referrer-Policy", "no-referrer");
            ex.getResponseHeaders().set("Cache-Control", "no-cache");
            ex.sendResponseHeaders(200, html.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(html);
            }
        }
    }
}
