package io.jdm.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * A line chart as inline SVG: one polyline per series, a circle per point and, where a point has a
 * spread, a vertical whisker from its min to its max. X is numeric (time) or an index into
 * category labels (settings).
 */
final class LineChart {
    record Point(double x, double y, double lo, double hi) {
        static Point of(double x, double y) {
            return new Point(x, y, Double.NaN, Double.NaN);
        }
    }

    record Series(String name, List<Point> points) {
    }

    private LineChart() {
    }

    /** Categorical x: points' x are indexes into {@code categories}. */
    static String categorical(String cssClass, String title, String xLabel, String yLabel, List<String> categories,
                              List<Series> series) {
        int n = Math.max(1, categories.size());
        DoubleFunction<Double> px = i -> Svg.LEFT + Svg.plotW() * (i + 0.5) / n;
        StringBuilder sb = new StringBuilder();
        Svg.open(sb, cssClass, title);
        double top = Svg.yAxis(sb, maxY(series), yLabel);
        for (int i = 0; i < categories.size(); i++) {
            Svg.xTick(sb, px.apply(i), categories.get(i));
        }
        Svg.xLabel(sb, xLabel);
        plot(sb, series, px, top);
        Svg.close(sb);
        return sb.toString();
    }

    /** Numeric x from 0 to the largest x. */
    static String numeric(String cssClass, String title, String xLabel, String yLabel, List<Series> series) {
        double maxX = series.stream().flatMap(s -> s.points().stream()).mapToDouble(Point::x).max().orElse(1);
        double right = Svg.niceCeil(maxX <= 0 ? 1 : maxX);
        DoubleFunction<Double> px = x -> Svg.LEFT + Svg.plotW() * x / right;
        StringBuilder sb = new StringBuilder();
        Svg.open(sb, cssClass, title);
        double top = Svg.yAxis(sb, maxY(series), yLabel);
        for (int i = 0; i <= 5; i++) {
            Svg.xTick(sb, px.apply(right * i / 5), Figures.fmt(right * i / 5));
        }
        Svg.xLabel(sb, xLabel);
        plot(sb, series, px, top);
        Svg.close(sb);
        return sb.toString();
    }

    private static void plot(StringBuilder sb, List<Series> series, DoubleFunction<Double> px, double top) {
        List<String> names = new ArrayList<>();
        for (int s = 0; s < series.size(); s++) {
            Series ser = series.get(s);
            names.add(ser.name());
            String color = Svg.color(s);
            StringBuilder pts = new StringBuilder();
            for (Point p : ser.points()) {
                if (!Double.isNaN(p.y())) {
                    pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px.apply(p.x()), Svg.y(p.y(), top)));
                }
            }
            sb.append(String.format(Locale.ROOT, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" "
                    + "stroke-width=\"2\" points=\"%s\"><title>%s</title></polyline>", color, pts.toString().trim(),
                    Svg.esc(ser.name())));
            boolean dots = ser.points().size() <= 40;
            for (Point p : ser.points()) {
                if (Double.isNaN(p.y())) {
                    continue;
                }
                double x = px.apply(p.x());
                if (!Double.isNaN(p.lo()) && p.hi() > p.lo()) {
                    sb.append(String.format(Locale.ROOT, "<line class=\"whisker\" stroke=\"%s\" x1=\"%.1f\" "
                            + "x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", color, x, x, Svg.y(p.lo(), top),
                            Svg.y(p.hi(), top)));
                }
                if (dots) {
                    sb.append(String.format(Locale.ROOT, "<circle class=\"point\" fill=\"%s\" cx=\"%.1f\" "
                            + "cy=\"%.1f\" r=\"3.5\"><title>%s: %s</title></circle>", color, x, Svg.y(p.y(), top),
                            Svg.esc(ser.name()), Figures.fmt(p.y())));
                }
            }
        }
        Svg.legend(sb, names);
    }

    private static double maxY(List<Series> series) {
        return series.stream().flatMap(s -> s.points().stream())
                .mapToDouble(p -> Double.isNaN(p.hi()) ? p.y() : Math.max(p.y(), p.hi()))
                .filter(d -> !Double.isNaN(d)).max().orElse(1);
    }
}
