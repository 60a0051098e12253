package io.jdm.common.metrics;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.jdm.common.util.NamedThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs a unit's progress line at a fixed interval on a named daemon thread. */
public final class ProgressLogger implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("jdm.progress");
    private final ScheduledExecutorService timer;

    public ProgressLogger(String task, String unit, MetricSource source, long intervalSeconds) {
        timer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(task, unit, "progress", true));
        timer.scheduleAtFixedRate(() -> {
            try {
                LOG.info("[{}] {}", unit, source.progressLine());
            } catch (RuntimeException e) {
                LOG.debug("progress line failed", e);
            }
        }, intervalSeconds, intervalSeconds, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
