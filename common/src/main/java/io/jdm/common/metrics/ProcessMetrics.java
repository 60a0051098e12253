package io.jdm.common.metrics;

import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The process's one metrics registry: JVM and process metrics, and the series of every source
 * registered here (each unit of a running task), read at scrape time from the units' own counters.
 * The registry is set up on the first {@link #register} or {@link #scrape} (a command that serves no
 * metrics, such as {@code jdm dump}, does not pay for the JVM metrics' set-up: about 35 ms of its start).
 */
public final class ProcessMetrics {
    private static final Set<Consumer<MetricFamilies>> SOURCES = ConcurrentHashMap.newKeySet();

    /** The registry, with the JVM metrics and every registered source on it. */
    private static final class Registry {
        static final PrometheusRegistry REGISTRY = PrometheusRegistry.defaultRegistry;

        static {
            JvmMetrics.builder().register(REGISTRY);
            REGISTRY.register((MultiCollector) () -> {
                MetricFamilies f = new MetricFamilies();
                SOURCES.forEach(s -> s.accept(f));
                return f.snapshots();
            });
        }
    }

    /** DM's worker label, looked up once when first asked for. */
    private static final class Worker {
        static final String NAME = hostName();
    }

    private ProcessMetrics() {
    }

    /** Adds {@code source}'s series to every scrape until the returned handle is closed. */
    public static Registration register(Consumer<MetricFamilies> source) {
        SOURCES.add(source);
        registry(); // sets the registry up: the JVM's metrics are there from the first unit on
        return () -> SOURCES.remove(source);
    }

    private static PrometheusRegistry registry() {
        return Registry.REGISTRY;
    }

    /** A registered source; closing it removes its series. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** DM's {@code worker} label: which process reports; here the host it runs on. */
    public static String worker() {
        return Worker.NAME;
    }

    /** The labels DM puts on a unit's series: {@code task}, {@code source_id}. */
    public static Labels unitLabels(String task, String sourceId) {
        return Labels.of("task", task, "source_id", sourceId);
    }

    /** Everything registered, in the Prometheus text format (0.0.4). */
    public static String scrape() {
        return MetricFamilies.text(registry().scrape());
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
