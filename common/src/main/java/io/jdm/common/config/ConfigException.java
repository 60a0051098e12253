package io.jdm.common.config;

import io.jdm.common.error.JdmException;
import java.util.List;

/**
 * A task file that cannot run, with every problem found, one line each
 * ({@code syncers.global.worker-count: must be 1..1024, got 0}). Never retriable: the file has to
 * change first.
 */
public final class ConfigException extends JdmException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super(String.join("\n", requireSome(problems)), null);
        this.problems = List.copyOf(problems);
    }

    public static ConfigException of(String problem) {
        return new ConfigException(List.of(problem));
    }

    /** One-line messages, in the order they were found. */
    public List<String> problems() {
        return problems;
    }

    @Override
    public boolean isRetriable() {
        return false;
    }

    private static List<String> requireSome(List<String> problems) {
        if (problems == null || problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        return problems;
    }
}
