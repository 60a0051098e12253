package io.jdm.cli;

/** A command used the wrong way, or a command that is not available: exit code 2. */
final class UsageError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
        super(message);
    }
}
