package io.jdm.cli.daemon;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A refusal of {@link OpenApi}, answered with DM's {@code ErrorWithMessage}: {@code error_msg}, the
 * one line that says what is wrong and what to do, and {@code error_code}, DM's code for the same
 * refusal where DM has one.
 */
final class OpenApiError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** DM's ErrSchedulerTaskNotExist. */
    static final int TASK_NOT_EXIST = 46018;
    /** DM's ErrSchedulerSourceCfgNotExist. */
    static final int SOURCE_NOT_EXIST = 46008;
    /** A refusal DM has no code of its own for (as {@code /status} prints ErrCode 0). */
    static final int NO_DM_CODE = 0;

    final int status;
    final int code;

    OpenApiError(int status, int code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    static OpenApiError badRequest(String message) {
        return new OpenApiError(400, NO_DM_CODE, message);
    }

    /** DM's {@code ErrorWithMessage}. */
    Map<String, Object> body() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error_msg", getMessage());
        m.put("error_code", code);
        return m;
    }
}
