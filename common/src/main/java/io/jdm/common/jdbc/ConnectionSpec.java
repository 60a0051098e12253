package io.jdm.common.jdbc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * How to reach one server. The password is never part of {@link #toString()}.
 *
 * @param session session variables set on every new connection ({@code SET SESSION k = v})
 * @param tls when present, TLS is required (see {@link Tls}); absent means no TLS, as in DM
 * @param rsaKey where the server's RSA public key comes from for a login without TLS that needs it
 */
public record ConnectionSpec(String host, int port, String user, String password, Map<String, String> session,
                             Optional<Tls> tls, int connectTimeoutSeconds, ServerRsaKey rsaKey) {
    public ConnectionSpec {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(user, "user");
        password = password == null ? "" : password;
        session = session == null ? Map.of() : Map.copyOf(new LinkedHashMap<>(session));
        tls = tls == null ? Optional.empty() : tls;
        rsaKey = rsaKey == null ? ServerRsaKey.RETRIEVED : rsaKey;
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535, got " + port);
        }
        if (connectTimeoutSeconds <= 0) {
            connectTimeoutSeconds = 10;
        }
    }

    /** A server whose RSA public key is asked of it when a login without TLS needs it. */
    public ConnectionSpec(String host, int port, String user, String password, Map<String, String> session,
                          Optional<Tls> tls, int connectTimeoutSeconds) {
        this(host, port, user, password, session, tls, connectTimeoutSeconds, ServerRsaKey.RETRIEVED);
    }

    public static ConnectionSpec of(String host, int port, String user, String password) {
        return new ConnectionSpec(host, port, user, password, Map.of(), Optional.empty(), 10);
    }

    public ConnectionSpec withSession(Map<String, String> extra) {
        Map<String, String> m = new LinkedHashMap<>(session);
        m.putAll(extra);
        return new ConnectionSpec(host, port, user, password, m, tls, connectTimeoutSeconds, rsaKey);
    }

    public ConnectionSpec withConnectTimeout(int seconds) {
        return new ConnectionSpec(host, port, user, password, session, tls, seconds, rsaKey);
    }

    public ConnectionSpec withRsaKey(ServerRsaKey key) {
        return new ConnectionSpec(host, port, user, password, session, tls, connectTimeoutSeconds, key);
    }

    /**
     * Connector/J properties that go with {@link #jdbcUrl()}: the TLS key stores when there is TLS,
     * else whether the server's RSA key may be asked for and the file of a pinned one.
     */
    public Properties driverProperties() {
        if (tls.isPresent()) {
            return tls.get().driverProperties();
        }
        Properties p = new Properties();
        rsaKey.putDriverProperties(p);
        return p;
    }

    /** The address a user recognises: {@code user@host:port}. */
    public String address() {
        return user + "@" + host + ":" + port;
    }

    /**
     * A Connector/J URL. Streaming and batching flags are set per use; this fixes the things that
     * must hold everywhere: UTC session time zone (values are moved as written, like Dumpling's
     * skip-tz-utc) and utf8mb4. Server-side prepared statements are off: jdm sends literal SQL.
     */
    public String jdbcUrl() {
        StringBuilder u = new StringBuilder("jdbc:mysql://").append(host).append(':').append(port).append('/');
        u.append("?connectionTimeZone=%2B00:00&forceConnectionTimeZoneToSession=true")
                .append("&characterEncoding=UTF-8&characterSetResults=UTF-8&connectionCollation=utf8mb4_general_ci")
                .append("&allowLoadLocalInfile=true")
                .append("&useServerPrepStmts=false&rewriteBatchedStatements=false&useLocalSessionState=true")
                .append("&connectTimeout=").append(connectTimeoutSeconds * 1000L)
                .append("&tcpKeepAlive=true&maintainTimeStats=false");
        if (tls.isPresent()) {
            // caching_sha2_password sends the password over TLS itself: no RSA key is fetched.
            // The key stores come with driverProperties(), whose passwords stay out of the URL
            u.append("&sslMode=").append(tls.get().sslMode());
        } else {
            // No TLS unless the task asks for it (security:), as DM does: on loopback and inside a
            // data centre the encryption costs the dump most of its throughput. Without TLS a
            // sha256_password user, or a caching_sha2_password one (MySQL 8's default) whose hash the
            // server has not cached yet, logs in only by encrypting the password with the server's
            // RSA key: asked of the server unless the task pins a key file or refuses retrieval
            // (driverProperties(), ServerRsaKey). The binlog connection does the same (sync's reader).
            u.append("&sslMode=DISABLED");
        }
        return u.toString();
    }

    @Override
    public String toString() {
        return "ConnectionSpec[" + address() + (password.isEmpty() ? "" : " password=******")
                + (session.isEmpty() ? "" : " session=" + session) + "]";
    }
}
