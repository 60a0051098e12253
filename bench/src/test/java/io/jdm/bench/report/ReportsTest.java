package io.jdm.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.jdm.bench.BenchConfig;
import io.jdm.bench.result.BenchResults;
import io.jdm.bench.result.LagTrace;
import io.jdm.bench.result.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ReportsTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    static BenchResults results() {
        return results(BenchResults.PROCESS);
    }

    static BenchResults results(String runner) {
        BenchConfig cfg = BenchConfig.parse("name: r\nrepetitions: 3\nsweeps: {load: {}, sync: {}}", Path.of("/tmp"));
        List<Sample> s = new ArrayList<>();
        double[][] jdmMbs = {{10, 30, 20}, {40, 50, 45}};
        int[] pools = {2, 8};
        for (int i = 0; i < pools.length; i++) {
            for (int rep = 0; rep < 3; rep++) {
                s.add(new Sample("load", "jdm", null, params("pool-size", pools[i], "rows-per-statement", 1000),
                        rep + 1, metrics(Sample.MB_PER_S, jdmMbs[i][rep], Sample.TXN_P95_MS, 5 + rep,
                                Sample.TXN_P99_MS, 9 + rep)));
                s.add(new Sample("load", "myloader", null, params("pool-size", pools[i], "rows-per-statement", 1000),
                        rep + 1, metrics(Sample.MB_PER_S, 10.0)));
            }
        }
        for (int rep = 1; rep <= 3; rep++) {
            s.add(new Sample("sync", "jdm", "oltp_insert", params("worker-count", 4, "batch", 100), rep,
                    metrics(Sample.ROWS_PER_S, 1000.0 * rep, Sample.LAG_P95_S, 0.2, Sample.LAG_P99_S, 0.4)));
            s.add(new Sample("sync", "mariadb-parallel-replication", "oltp_insert", params("worker-count", 4), rep,
                    metrics(Sample.ROWS_PER_S, 500.0, Sample.LAG_P95_S, 0.3, Sample.LAG_P99_S, 0.6)));
        }
        List<LagTrace> lags = List.of(
                new LagTrace("jdm", "oltp_insert", "worker-count=4 batch=100", 1,
                        List.of(new double[] {0.25, 0.1}, new double[] {0.5, 0.3}, new double[] {0.75, 0.2})),
                new LagTrace("mariadb-parallel-replication", "oltp_insert", "worker-count=4", 1,
                        List.of(new double[] {0.25, 0.2}, new double[] {0.5, 0.6})));
        return new BenchResults(cfg.name(), cfg.repetitions(), runner, s, lags, List.of("dataset: test <data>"));
    }

    @Test
    void markdownGivesMediansSpreadAndRatiosAtTheSameSetting() {
        String md = Reports.markdown(results());
        // pool 2: jdm MB/s 10, 30, 20 -> median 20, spread 10-30; myloader 10 -> 2.00x
        assertTrue(md.contains("| 2 | 1000 | jdm | 20.0 [10.0–30.0] | - | 6.00 [5.00–7.00] | 10.0 [9.00–11.0] | - | - | - | - | 3 |"),
                md);
        assertTrue(md.contains("| pool-size=2 rows-per-statement=1000 | myloader | 20.0 | 10.0 | 2.00x |"), md);
        assertTrue(md.contains("| pool-size=8 rows-per-statement=1000 | myloader | 45.0 | 10.0 | 4.50x |"), md);
        // the native peer has no batch, so it compares with jdm at the same worker count
        assertTrue(md.contains("| oltp_insert worker-count=4 batch=100 | mariadb-parallel-replication | 2,000 | 500 "
                + "| 4.00x |"), md);
    }

    @Test
    void anInJvmRunSaysInItsHeaderThatItIsAProfilingAid() {
        String md = Reports.markdown(results(BenchResults.IN_JVM));
        assertTrue(md.startsWith("# jdm bench: r (profiling aid: runner in-jvm)\n\nRunner in-jvm, a profiling aid:"), md);
        assertTrue(Reports.html(results(BenchResults.IN_JVM)).contains("<h1>jdm bench: r (profiling aid: runner in-jvm)"
                + "</h1>\n<p>Runner in-jvm, a profiling aid:"));
        String process = Reports.markdown(results());
        assertTrue(process.startsWith("# jdm bench: r\n\nRunner process: every jdm sample"), process);
        assertTrue(!process.contains("profiling"), process);
    }

    @Test
    void csvHasOneRowPerSampleAndLagPoints() throws Exception {
        Path dir = Files.createTempDirectory("reports");
        Reports.Written w = Reports.write(results(), dir);
        List<String> csv = Files.readAllLines(w.samplesCsv());
        assertEquals(1 + 12 + 6, csv.size());
        assertTrue(csv.get(0).startsWith("sweep,tool,workload,setting,repetition,seconds,"), csv.get(0));
        assertEquals(1 + 5, Files.readAllLines(w.lagCsv()).size());
    }

    /** A value holding a comma, a quote, CR and LF comes back whole through Jackson's CSV reader. */
    @Test
    void csvValuesWithCommaQuoteCrAndLfReadBack() throws Exception {
        String tool = "peer, \"quoted\"\r\nnext line\rend";
        String mix = "a,b\nc";
        String samples = CsvReport.samples(List.of(new Sample("load", tool, mix, params("pool-size", 2), 1,
                metrics(Sample.MB_PER_S, 1.5))));
        List<List<String>> rows = readCsv(samples);
        assertEquals(2, rows.size(), samples);
        assertEquals(List.of("load", tool, mix, "pool-size=2", "1"), rows.get(1).subList(0, 5));
        assertEquals("1.5000", rows.get(1).get(5 + Sample.METRICS.indexOf(Sample.MB_PER_S)));
        assertEquals("", rows.get(1).get(5 + Sample.METRICS.indexOf(Sample.ROWS)), "a missing metric is empty");

        String lags = CsvReport.lags(List.of(new LagTrace(tool, mix, "x=\r1", 2,
                List.<double[]>of(new double[] {0.5, 0.25}))));
        assertEquals(List.of(List.of("tool", "workload", "setting", "repetition", "elapsed_s", "lag_s"),
                List.of(tool, mix, "x=\r1", "2", "0.500", "0.250")), readCsv(lags));
    }

    private static List<List<String>> readCsv(String csv) throws Exception {
        try (MappingIterator<List<String>> it = new CsvMapper().readerForListOf(String.class)
                .with(CsvParser.Feature.WRAP_AS_ARRAY).readValues(csv)) {
            return it.readAll();
        }
    }

    @Test
    void htmlIsSelfContainedWithTheThreeKindsOfChart() {
        String html = Reports.html(results());
        assertEquals(2, count(html, "<svg class=\"chart throughput\""));
        assertEquals(2, count(html, "<svg class=\"chart latency\""));
        assertEquals(1, count(html, "<svg class=\"chart lag\""));
        assertTrue(html.contains("test &lt;data&gt;"), "notes are escaped");
        assertTrue(!html.contains("<script") && !html.contains("http://") || html.contains("xmlns=\"http://www.w3"),
                "nothing fetched at view time");
        assertEquals(0, count(html.replace("http://www.w3.org/2000/svg", ""), "http"));
    }

    /** Renders the page in headless Chromium and checks the DOM it built has the charts with drawn marks. */
    @Test
    void chromiumRendersTheCharts() throws Exception {
        if (!Files.isExecutable(CHROMIUM)) {
            LoggerFactory.getLogger(ReportsTest.class).warn("skipped: {} is absent (Debian package chromium)",
                    CHROMIUM);
            Assumptions.abort(CHROMIUM + " is absent");
        }
        Path dir = Files.createTempDirectory("reports-html");
        Reports.Written w = Reports.write(results(), dir);
        Path png = dir.resolve("shot.png");
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=" + dir.resolve("profile"), "--dump-dom", w.html().toUri().toString())
                .redirectError(dir.resolve("chromium.err").toFile()).start();
        String dom = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium finished");
        assertEquals(5, count(dom, "<svg class=\"chart "), dom.length() > 500 ? dom.substring(0, 500) : dom);
        assertTrue(count(dom, "<polyline") >= 4, "throughput and lag lines");
        assertTrue(count(dom, "<rect class=\"bar\"") >= 6, "latency bars");
        Process shot = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=" + dir.resolve("profile2"), "--window-size=900,2400", "--screenshot=" + png,
                w.html().toUri().toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("shot.log").toFile()).start();
        assertTrue(shot.waitFor(120, TimeUnit.SECONDS), "screenshot finished");
        assertTrue(Files.size(png) > 10_000, "a non-trivial screenshot");
    }

    private static int count(String s, String needle) {
        Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static Map<String, Long> params(Object... kv) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], ((Number) kv[i + 1]).longValue());
        }
        return m;
    }

    private static Map<String, Double> metrics(Object... kv) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], ((Number) kv[i + 1]).doubleValue());
        }
        return m;
    }
}
