package io.jdm.bench.report;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.jdm.bench.result.LagTrace;
import io.jdm.bench.result.Sample;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Every sample as one CSV row (RFC 4180 quoting), and every lag point as one row of a second file. */
final class CsvReport {
    /**
     * Rows of cells, one line each ending in LF. A value is quoted only when it holds a comma, a
     * quote, CR or LF (strict checking; by default Jackson also quotes values with spaces and other
     * harmless characters), so plain values read as before.
     */
    private static final ObjectWriter CSV = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .build()
            .writer(CsvSchema.emptySchema().withLineSeparator("\n"));

    private CsvReport() {
    }

    static String samples(List<Sample> samples) throws IOException {
        List<List<Object>> rows = new ArrayList<>();
        List<Object> header = new ArrayList<>(List.of("sweep", "tool", "workload", "setting", "repetition"));
        header.addAll(Sample.METRICS);
        rows.add(header);
        for (Sample s : samples) {
            List<Object> row = new ArrayList<>(List.of(s.sweep(), s.tool(), s.mix(), s.setting(), s.repetition()));
            for (String m : Sample.METRICS) {
                row.add(num(s.metric(m)));
            }
            rows.add(row);
        }
        return CSV.writeValueAsString(rows);
    }

    static String lags(List<LagTrace> traces) throws IOException {
        List<List<Object>> rows = new ArrayList<>();
        rows.add(List.of("tool", "workload", "setting", "repetition", "elapsed_s", "lag_s"));
        for (LagTrace t : traces) {
            for (double[] p : t.points()) {
                rows.add(List.of(t.tool(), t.mix(), t.setting(), t.repetition(),
                        String.format(Locale.ROOT, "%.3f", p[0]), String.format(Locale.ROOT, "%.3f", p[1])));
            }
        }
        return CSV.writeValueAsString(rows);
    }

    /** jdm against each peer at the same setting: medians of the sweep's main throughput and their ratio. */
    static String ratios(List<Ratio> ratios) throws IOException {
        List<List<Object>> rows = new ArrayList<>();
        rows.add(List.of("sweep", "workload", "setting", "peer", "metric", "jdm_median", "peer_median", "ratio"));
        for (Ratio r : ratios) {
            rows.add(List.of(r.sweep(), r.mix(), r.setting(), r.peer(), r.metric(), num(r.jdm()), num(r.other()),
                    num(r.ratio())));
        }
        return CSV.writeValueAsString(rows);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }
}
