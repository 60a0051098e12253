package io.jdm.cli.daemon;

/** A task operation that cannot be done now; the message is the one line the user reads. */
public final class TaskOpRefused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TaskOpRefused(String message) {
        super(message);
    }
}
