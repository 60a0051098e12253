package io.jdm.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;
import org.slf4j.Logger;

/**
 * jdm's console log, set up in code (found by logback through {@code META-INF/services}) rather
 * than from a {@code logback.xml}: reading XML loads some 400 classes of logback's configuration
 * machinery and an XML parser into every start of jdm. One appender on standard error, {@code
 * HH:mm:ss LEVEL message}; the chatty libraries at WARN.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogSetup extends ContextAwareBase implements Configurator {
    @Override
    public ExecutionStatus configure(LoggerContext ctx) {
        ctx.getStatusManager().add(new NopStatusListener());
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern("%d{HH:mm:ss} %-5level %msg%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> err = new ConsoleAppender<>();
        err.setContext(ctx);
        err.setName("ERR");
        err.setTarget("System.err");
        err.setEncoder(encoder);
        err.start();
        for (String quiet : new String[] {"ch.vorburger", "com.zaxxer.hikari", "com.github.shyiko", "org.testcontainers"}) {
            ctx.getLogger(quiet).setLevel(Level.WARN);
        }
        ch.qos.logback.classic.Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(err);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
