package io.jdm.common.error;

/** An error that may pass on retry: lost connection, deadlock, lock wait timeout, TiDB write conflict. */
public final class RetriableException extends JdmException {
    private static final long serialVersionUID = 1L;

    public RetriableException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isRetriable() {
        return true;
    }
}
