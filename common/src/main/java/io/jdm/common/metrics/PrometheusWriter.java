package io.jdm.common.metrics;

import java.util.Locale;
import java.util.Map;

/** Writes metrics in the Prometheus text exposition format, with the {@code jdm_} prefix. */
public final class PrometheusWriter {
    private final StringBuilder out = new StringBuilder();

    public PrometheusWriter counter(String name, String help, Map<String, String> labels, double value) {
        return metric(name, "counter", help, labels, value);
    }

    public PrometheusWriter gauge(String name, String help, Map<String, String> labels, double value) {
        return metric(name, "gauge", help, labels, value);
    }

    /** One counter with a sample per value of the label {@code key}, e.g. retries by error code. */
    public PrometheusWriter counters(String name, String help, Map<String, String> labels, String key,
                                     Map<String, ? extends Number> byKey) {
        String full = "jdm_" + name;
        header(full, "counter", help);
        byKey.forEach((k, v) -> out.append(full).append(labels(labels, key, escape(k))).append(' ')
                .append(fmt(v.doubleValue())).append('\n'));
        return this;
    }

    /** A latency as a summary with quantiles 0.5, 0.95, 0.99 in seconds. */
    public PrometheusWriter latency(String name, String help, Map<String, String> labels, Latency l) {
        String full = "jdm_" + name + "_seconds";
        header(full, "summary", help);
        for (double q : new double[] {0.5, 0.95, 0.99}) {
            out.append(full).append(labels(labels, "quantile", String.valueOf(q))).append(' ')
                    .append(fmt(l.percentileMillis(q * 100) / 1000.0)).append('\n');
        }
        out.append(full).append("_count").append(labels(labels, null, null)).append(' ').append(l.count()).append('\n');
        return this;
    }

    private PrometheusWriter metric(String name, String type, String help, Map<String, String> labels, double v) {
        String full = "jdm_" + name;
        header(full, type, help);
        out.append(full).append(labels(labels, null, null)).append(' ').append(fmt(v)).append('\n');
        return this;
    }

    private void header(String full, String type, String help) {
        out.append("# HELP ").append(full).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(full).append(' ').append(type).append('\n');
    }

    private static String labels(Map<String, String> labels, String extraKey, String extraValue) {
        if (labels.isEmpty() && extraKey == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder("{");
        labels.forEach((k, v) -> sb.append(k).append("=\"").append(escape(v)).append("\","));
        if (extraKey != null) {
            sb.append(extraKey).append("=\"").append(extraValue).append("\",");
        }
        sb.setLength(sb.length() - 1);
        return sb.append('}').toString();
    }

    private static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.6g", v);
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
