package io.jdm.common.error;

/**
 * Base of jdm's errors. The message is the one line a user reads: what went wrong, where (task,
 * unit, table, file:offset or binlog position) and what to do.
 */
public abstract class JdmException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected JdmException(String message, Throwable cause) {
        super(message, cause);
    }

    /** True when retrying the same operation later may succeed. */
    public abstract boolean isRetriable();
}
