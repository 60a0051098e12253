package io.jdm.bench.report;

import java.util.List;
import java.util.Locale;

/** Shared pieces of the inline SVG charts: frame, axes with round ticks, legend, escaping. */
final class Svg {
    static final int W = 780;
    static final int H = 360;
    static final int LEFT = 70;
    static final int RIGHT = 250;
    static final int TOP = 40;
    static final int BOTTOM = 50;
    static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#17becf", "#7f7f7f", "#bcbd22"};

    private Svg() {
    }

    static String color(int i) {
        return COLORS[i % COLORS.length];
    }

    static double plotW() {
        return W - LEFT - RIGHT;
    }

    static double plotH() {
        return H - TOP - BOTTOM;
    }

    static void open(StringBuilder sb, String cssClass, String title) {
        sb.append(String.format(Locale.ROOT, "<svg class=\"chart %s\" xmlns=\"http://www.w3.org/2000/svg\" "
                + "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", cssClass, W, H, W, H));
        sb.append("<title>").append(esc(title)).append("</title>");
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" class=\"t\">%s</text>", LEFT, esc(title)));
    }

    static void close(StringBuilder sb) {
        sb.append("</svg>\n");
    }

    /** A y axis from 0 to a round maximum with five gridlines; returns that maximum. */
    static double yAxis(StringBuilder sb, double maxValue, String label) {
        double top = niceCeil(maxValue <= 0 || Double.isNaN(maxValue) ? 1 : maxValue);
        for (int i = 0; i <= 5; i++) {
            double v = top * i / 5;
            double y = y(v, top);
            sb.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                    + "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT, LEFT + plotW(),
                    y, y, LEFT - 6, y + 4, esc(Figures.fmt(v))));
        }
        sb.append(String.format(Locale.ROOT, "<text class=\"axis\" transform=\"translate(16,%.1f) rotate(-90)\" "
                + "text-anchor=\"middle\">%s</text>", TOP + plotH() / 2, esc(label)));
        sb.append(String.format(Locale.ROOT, "<line class=\"frame\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%.1f\"/>"
                + "<line class=\"frame\" x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", LEFT, LEFT, TOP,
                TOP + plotH(), LEFT, LEFT + plotW(), TOP + plotH(), TOP + plotH()));
        return top;
    }

    static void xLabel(StringBuilder sb, String label) {
        sb.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s"
                + "</text>", LEFT + plotW() / 2, H - 10, esc(label)));
    }

    static void xTick(StringBuilder sb, double x, String label) {
        sb.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
                + "</text>", x, TOP + plotH() + 16, esc(label)));
    }

    static void legend(StringBuilder sb, List<String> names) {
        for (int i = 0; i < names.size(); i++) {
            double y = TOP + 8 + i * 18;
            sb.append(String.format(Locale.ROOT, "<g class=\"legend\"><rect x=\"%.1f\" y=\"%.1f\" width=\"12\" "
                    + "height=\"12\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">%s</text></g>", W - RIGHT + 14.0,
                    y - 10, color(i), W - RIGHT + 32.0, y, esc(names.get(i))));
        }
    }

    static double y(double v, double top) {
        return TOP + plotH() - (v / top) * plotH();
    }

    /** 1, 2, 2.5 or 5 times a power of ten, at least {@code v}. */
    static double niceCeil(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
