package io.jdm.common.config;

import java.util.Objects;

/**
 * The daemon's address ({@code status-addr}) and the credential that operates the task through it.
 * {@code GET /status} and {@code /metrics} answer whoever reaches the address; {@code POST /tasks/*}
 * (pause, resume, stop) needs {@link #token} as a bearer token once one is set. The token comes from
 * the environment ({@code status-token: ${VAR}}) or a file ({@code status-token-file}), never from
 * the task file's own text, and prints masked like every {@link Secret}.
 *
 * @param token {@link Secret#EMPTY} when none is configured
 */
public record StatusConfig(String addr, Secret token) {
    public static final String DEFAULT_ADDR = "127.0.0.1:8261";

    public StatusConfig {
        Objects.requireNonNull(addr, "addr");
        Objects.requireNonNull(token, "token");
    }

    /** The default address, no token: what a task file without these keys gets. */
    public static StatusConfig at(String addr) {
        return new StatusConfig(addr, Secret.EMPTY);
    }

    public boolean hasToken() {
        return !token.isEmpty();
    }
}
