package io.jdm.common.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS files for one connection ({@code security:} in DM). Relative paths were resolved against the
 * file that named them, so these are usable as they are.
 */
public record SecurityConfig(Optional<Path> sslCa, Optional<Path> sslCert, Optional<Path> sslKey) {
    public SecurityConfig {
        Objects.requireNonNull(sslCa, "sslCa");
        Objects.requireNonNull(sslCert, "sslCert");
        Objects.requireNonNull(sslKey, "sslKey");
    }

    public static SecurityConfig none() {
        return new SecurityConfig(Optional.empty(), Optional.empty(), Optional.empty());
    }

    public boolean isEmpty() {
        return sslCa.isEmpty() && sslCert.isEmpty() && sslKey.isEmpty();
    }
}
