package io.jdm.common.config;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.ServerRsaKey;
import io.jdm.common.jdbc.Tls;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One server jdm connects to: {@code target-database}, or a source's {@code from}.
 *
 * @param session session variables set on every connection, in file order
 * @param tls TLS from {@code security:} when it asks for it, read and checked at load
 * @param rsaKey where the server's RSA public key comes from for a login without TLS that needs it
 * @param maxAllowedPacket the client-side packet limit in bytes, when set
 */
public record DatabaseConfig(String host, int port, String user, Secret password, Map<String, String> session,
                             Optional<Tls> tls, ServerRsaKey rsaKey, OptionalLong maxAllowedPacket,
                             Duration connectTimeout) {
    public static final int DEFAULT_PORT = 3306;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    public DatabaseConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        session = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(session, "session")));
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(rsaKey, "rsaKey");
        Objects.requireNonNull(maxAllowedPacket, "maxAllowedPacket");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
    }

    /** Host, port, user and password; everything else at its default. */
    public static DatabaseConfig of(String host, int port, String user, Secret password) {
        return new DatabaseConfig(host, port, user, password, Map.of(), Optional.empty(), ServerRsaKey.RETRIEVED,
                OptionalLong.empty(), DEFAULT_CONNECT_TIMEOUT);
    }

    /** How the connection pools see this server. */
    public ConnectionSpec toConnectionSpec() {
        return new ConnectionSpec(host, port, user, password.reveal(), session, tls, (int) connectTimeout.toSeconds(),
                rsaKey);
    }

    /** {@code user@host:port}, the way a DBA names a server. */
    public String address() {
        return user + "@" + host + ":" + port;
    }
}
