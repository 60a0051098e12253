package io.jdm.common.config;

import java.util.Objects;

/**
 * A password. It prints as {@code ******} wherever it ends up (records, logs, messages); only
 * {@link #reveal()} hands out the value, so every place that really needs it is easy to find.
 */
public final class Secret {
    /** No password. */
    public static final Secret EMPTY = new Secret("");

    private static final String MASK = "******";

    private final String value;

    private Secret(String value) {
        this.value = value;
    }

    public static Secret of(String value) {
        Objects.requireNonNull(value, "value");
        return value.isEmpty() ? EMPTY : new Secret(value);
    }

    public String reveal() {
        return value;
    }

    public boolean isEmpty() {
        return value.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return MASK;
    }
}
