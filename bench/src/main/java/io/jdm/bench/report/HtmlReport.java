package io.jdm.bench.report;

import io.jdm.bench.result.BenchResults;
import io.jdm.bench.result.LagTrace;
import io.jdm.bench.result.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One self-contained HTML file: inline SVG charts (throughput vs setting, latency percentiles, lag
 * over time) and the Markdown tables; no script and nothing fetched at view time.
 */
final class HtmlReport {
    private static final String CSS = "body{font-family:sans-serif;margin:24px;color:#222}"
            + "svg.chart{display:block;margin:12px 0;background:#fff;border:1px solid #ddd}"
            + ".t{font-size:15px;font-weight:bold}.tick{font-size:11px;fill:#555}.axis{font-size:12px}"
            + ".legend text{font-size:11px}.grid{stroke:#eee}.frame{stroke:#888}.whisker{stroke-width:1.5}"
            + "pre{background:#f6f6f6;padding:12px;overflow-x:auto}";

    private HtmlReport() {
    }

    static String render(BenchResults r, String markdown) {
        StringBuilder sb = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
        String title = Svg.esc(MarkdownReport.title(r));
        sb.append("<title>").append(title).append("</title><style>").append(CSS)
                .append("</style></head><body>\n<h1>").append(title).append("</h1>\n<p>")
                .append(Svg.esc(MarkdownReport.runner(r))).append("</p>\n");
        List<Group> groups = Group.of(r.samples());
        for (String sweep : Columns.SWEEPS) {
            List<Group> gs = groups.stream().filter(g -> g.sweep().equals(sweep)).toList();
            if (gs.isEmpty()) {
                continue;
            }
            sb.append("<h2>").append(sweep).append("</h2>\n");
            for (String mix : gs.stream().map(Group::mix).distinct().toList()) {
                List<Group> m = gs.stream().filter(g -> g.mix().equals(mix)).toList();
                String suffix = mix.equals("-") ? "" : " (" + mix + ")";
                sb.append(throughput(sweep, suffix, m));
                sb.append(latency(sweep, suffix, m));
                if (sweep.equals("sync")) {
                    sb.append(lag(suffix, r.lags().stream().filter(t -> t.mix().equals(mix)).toList()));
                }
            }
        }
        sb.append("<h2>Tables</h2>\n<pre>").append(Svg.esc(markdown)).append("</pre>\n</body></html>\n");
        return sb.toString();
    }

    private static String throughput(String sweep, String suffix, List<Group> gs) {
        String xParam = Columns.xParam(sweep);
        Columns.Col main = Columns.main(sweep);
        TreeSet<Long> xs = new TreeSet<>();
        gs.forEach(g -> xs.add(g.params().getOrDefault(xParam, 0L)));
        List<Long> xList = new ArrayList<>(xs);
        Map<String, List<LineChart.Point>> series = new LinkedHashMap<>();
        for (Group g : gs) {
            String name = g.tool() + others(g, xParam);
            int i = xList.indexOf(g.params().getOrDefault(xParam, 0L));
            series.computeIfAbsent(name, k -> new ArrayList<>()).add(new LineChart.Point(i,
                    g.median(main.metric()), g.min(main.metric()), g.max(main.metric())));
        }
        List<LineChart.Series> ss = new ArrayList<>();
        series.forEach((k, v) -> ss.add(new LineChart.Series(k, v.stream()
                .sorted((a, b) -> Double.compare(a.x(), b.x())).toList())));
        return LineChart.categorical("throughput", sweep + ": " + main.header() + " vs " + xParam + suffix, xParam,
                main.header() + " (median, min–max)", xList.stream().map(String::valueOf).toList(), ss);
    }

    private static String latency(String sweep, String suffix, List<Group> gs) {
        String[] lagMetrics = {Sample.LAG_P95_S, Sample.LAG_P99_S};
        String[] txnMetrics = {Sample.TXN_P95_MS, Sample.TXN_P99_MS};
        // sync shows lag when it was sampled (live mode), else jdm's transaction latency (backlog mode)
        boolean lag = sweep.equals("sync") && !with(gs, lagMetrics).isEmpty();
        String[] metrics = lag ? lagMetrics : txnMetrics;
        List<Group> with = with(gs, metrics);
        if (with.isEmpty()) {
            return "";
        }
        List<String> cats = new ArrayList<>();
        double[][] v = new double[with.size()][2];
        for (int i = 0; i < with.size(); i++) {
            Group g = with.get(i);
            cats.add(g.tool() + " " + shortSetting(g));
            v[i][0] = g.median(metrics[0]);
            v[i][1] = g.median(metrics[1]);
        }
        return BarChart.render("latency", sweep + ": " + (lag ? "lag" : "transaction latency") + " percentiles"
                + suffix, lag ? "seconds" : "milliseconds", cats, List.of("p95", "p99"), v);
    }

    private static List<Group> with(List<Group> gs, String[] metrics) {
        return gs.stream().filter(g -> !Double.isNaN(g.median(metrics[0])) || !Double.isNaN(g.median(metrics[1])))
                .toList();
    }

    private static String lag(String suffix, List<LagTrace> traces) {
        Map<String, LagTrace> first = new LinkedHashMap<>();
        traces.forEach(t -> first.putIfAbsent(t.tool() + " " + t.setting(), t));
        if (first.isEmpty()) {
            return "";
        }
        List<LineChart.Series> ss = new ArrayList<>();
        first.forEach((name, t) -> ss.add(new LineChart.Series(name, t.points().stream()
                .map(p -> LineChart.Point.of(p[0], p[1])).toList())));
        return LineChart.numeric("lag", "sync: lag over time" + suffix + " (first repetition)",
                "seconds since the workload started", "lag (s)", ss);
    }

    private static String others(Group g, String xParam) {
        StringBuilder sb = new StringBuilder();
        g.params().forEach((k, v) -> {
            if (!k.equals(xParam)) {
                sb.append(' ').append(k).append('=').append(v);
            }
        });
        return sb.toString();
    }

    private static String shortSetting(Group g) {
        StringBuilder sb = new StringBuilder();
        g.params().values().forEach(v -> sb.append(sb.length() == 0 ? "" : "/").append(v));
        return sb.toString();
    }
}
