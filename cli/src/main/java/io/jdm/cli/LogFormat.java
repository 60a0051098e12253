package io.jdm.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Switches the console log to JSON lines (logback's JsonEncoder) on request. */
final class LogFormat {
    private static volatile boolean json;

    private LogFormat() {
    }

    /** True once the log is JSON lines: nothing else may then write on its lines (see {@link TerminalProgress}). */
    static boolean isJson() {
        return json;
    }

    static void useJson() {
        json = true;
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return;
        }
        ch.qos.logback.classic.Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        if (root.getAppender("ERR") instanceof ConsoleAppender<ILoggingEvent> console) {
            JsonEncoder enc = new JsonEncoder();
            enc.setContext(ctx);
            enc.setWithMDC(false);
            enc.setWithArguments(false);
            enc.setWithMessage(false);
            enc.setWithFormattedMessage(true); // the line as the console prints it, arguments filled in
            enc.start();
            console.stop();
            console.setEncoder(enc);
            console.start();
        }
    }
}
