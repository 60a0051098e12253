package io.jdm.common.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The daemon's address ({@code status-addr}) and the credential that operates the task through it.
 * {@code GET /status} and {@code /metrics} answer whoever reaches the address; {@code POST /tasks/*}
 * (pause, resume, stop) needs {@link #token} as a bearer token once one is set. The token comes from
 * the environment ({@code status-token: ${VAR}}) or a file ({@code status-token-file}), never from
 * the task file's own text, and prints masked like every {@link Secret}. With {@link #tls} the address
 * speaks HTTPS only, so the token does not cross the network in clear text.
 *
 * @param token {@link Secret#EMPTY} when none is configured
 */
public record StatusConfig(String addr, Secret token, Optional<StatusTls> tls) {
    public static final String DEFAULT_ADDR = TaskRootKeys.STATUS_ADDR.def();

    public StatusConfig {
        Objects.requireNonNull(addr, "addr");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(tls, "tls");
    }

    /** An address alone: no token, no TLS. */
    public static StatusConfig at(String addr) {
        return new StatusConfig(addr, Secret.EMPTY, Optional.empty());
    }

    public boolean hasToken() {
        return !token.isEmpty();
    }
}
