package io.jdm.bench.report;

import java.util.List;
import java.util.Locale;

/** Grouped bars as inline SVG: one group per category, one bar per series (e.g. p95 and p99). */
final class BarChart {
    private BarChart() {
    }

    /** {@code values[category][series]}; NaN leaves a gap. */
    static String render(String cssClass, String title, String yLabel, List<String> categories, List<String> series,
                         double[][] values) {
        double max = 0;
        for (double[] row : values) {
            for (double v : row) {
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        Svg.open(sb, cssClass, title);
        double top = Svg.yAxis(sb, max, yLabel);
        int n = Math.max(1, categories.size());
        double groupW = Svg.plotW() / n;
        double barW = Math.max(2, groupW * 0.8 / Math.max(1, series.size()));
        for (int c = 0; c < categories.size(); c++) {
            double x0 = Svg.LEFT + groupW * c + groupW * 0.1;
            for (int s = 0; s < series.size(); s++) {
                double v = values[c][s];
                if (Double.isNaN(v)) {
                    continue;
                }
                double y = Svg.y(v, top);
                sb.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                        + "height=\"%.1f\" fill=\"%s\"><title>%s %s: %s</title></rect>", x0 + s * barW, y, barW - 1,
                        Svg.TOP + Svg.plotH() - y, Svg.color(s), Svg.esc(categories.get(c)), Svg.esc(series.get(s)),
                        Figures.fmt(v)));
            }
            Svg.xTick(sb, x0 + groupW * 0.4, categories.get(c));
        }
        Svg.legend(sb, series);
        Svg.close(sb);
        return sb.toString();
    }
}
