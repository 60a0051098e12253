package io.jdm.bench.report;

import io.jdm.bench.result.LagTrace;
import io.jdm.bench.result.Sample;
import java.util.List;
import java.util.Locale;

/** Every sample as one CSV row (RFC 4180 quoting), and every lag point as one row of a second file. */
final class CsvReport {
    private CsvReport() {
    }

    static String samples(List<Sample> samples) {
        StringBuilder sb = new StringBuilder("sweep,tool,workload,setting,repetition,");
        sb.append(String.join(",", Sample.METRICS)).append('\n');
        for (Sample s : samples) {
            sb.append(quote(s.sweep())).append(',').append(quote(s.tool())).append(',').append(quote(s.mix()))
                    .append(',').append(quote(s.setting())).append(',').append(s.repetition());
            for (String m : Sample.METRICS) {
                double v = s.metric(m);
                sb.append(',').append(Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String lags(List<LagTrace> traces) {
        StringBuilder sb = new StringBuilder("tool,workload,setting,repetition,elapsed_s,lag_s\n");
        for (LagTrace t : traces) {
            for (double[] p : t.points()) {
                sb.append(quote(t.tool())).append(',').append(quote(t.mix())).append(',').append(quote(t.setting()))
                        .append(',').append(t.repetition()).append(',')
                        .append(String.format(Locale.ROOT, "%.3f,%.3f", p[0], p[1])).append('\n');
            }
        }
        return sb.toString();
    }

    /** jdm against each peer at the same setting: medians of the sweep's main throughput and their ratio. */
    static String ratios(List<Ratio> ratios) {
        StringBuilder sb = new StringBuilder("sweep,workload,setting,peer,metric,jdm_median,peer_median,ratio\n");
        for (Ratio r : ratios) {
            sb.append(quote(r.sweep())).append(',').append(quote(r.mix())).append(',').append(quote(r.setting()))
                    .append(',').append(quote(r.peer())).append(',').append(r.metric()).append(',')
                    .append(num(r.jdm())).append(',').append(num(r.other())).append(',').append(num(r.ratio()))
                    .append('\n');
        }
        return sb.toString();
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }

    static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
