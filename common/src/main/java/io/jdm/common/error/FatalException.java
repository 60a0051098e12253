package io.jdm.common.error;

/** An error that retrying cannot fix: bad input, missing privilege, data the target refuses. */
public final class FatalException extends JdmException {
    private static final long serialVersionUID = 1L;

    public FatalException(String message) {
        super(message, null);
    }

    public FatalException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isRetriable() {
        return false;
    }
}
