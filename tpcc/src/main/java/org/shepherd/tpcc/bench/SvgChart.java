package org.shepherd.tpcc.bench;

import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;

/** Throughput against clients, one line per configuration with ±1 standard deviation bars, like the paper's Figure 7. */
final class SvgChart {

    private static final int WIDTH = 760;
    private static final int HEIGHT = 460;
    private static final int LEFT = 80;
    private static final int RIGHT = 170;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final int Y_TICKS = 5;
    private static final int X_TICKS = 5;
    private static final String[] COLORS = {"#222222", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};
    private static final String[] DASHES = {"", "6,3", "", "2,3", "8,3,2,3", "4,4"};

    private SvgChart() {
    }

    static String render(BenchResults results, String title) {
        List<Integer> xs = results.terminals().stream().sorted().toList();
        double xMin = xs.get(0);
        double xMax = xs.get(xs.size() - 1);
        double yMax = 0;
        for (String c : results.configs()) {
            for (int t : xs) {
                double m = results.medianThroughput(c, t).orElse(0.0) + results.stddevThroughput(c, t).orElse(0.0);
                yMax = Math.max(yMax, m);
            }
        }
        yMax = niceCeiling(yMax <= 0 ? 1 : yMax * 1.05);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder s = new StringBuilder();
        openWithGrid(s, title, yMax);
        for (int t : xs) {
            double x = xPos(t, xMin, xMax, plotW);
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n", x,
                TOP + plotH + 18, t));
        }
        closeFrame(s, "Number of clients", "Transactions per second");
        int index = 0;
        for (String c : results.configs()) {
            String color = COLORS[index % COLORS.length];
            StringBuilder points = new StringBuilder();
            for (int t : xs) {
                Optional<Double> m = results.medianThroughput(c, t);
                if (m.isEmpty()) continue;
                double x = xPos(t, xMin, xMax, plotW);
                double y = yPos(m.get(), yMax, plotH);
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                Optional<Double> sd = results.stddevThroughput(c, t);
                if (sd.isPresent()) {
                    double y1 = yPos(m.get() - sd.get(), yMax, plotH);
                    double y2 = yPos(m.get() + sd.get(), yMax, plotH);
                    s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
                        x, y1, x, y2, color));
                }
                s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>%n", x, y, color));
            }
            polyline(s, points, index);
            legend(s, index, c);
            index++;
        }
        s.append("</svg>\n");
        return s.toString();
    }

    /**
     * Each series' points (x, y) as a line, with dashed vertical marks at the given x values, like the paper's
     * Figure 9 (commits over time per replica).
     */
    static String renderTimeline(String title, String xLabel, String yLabel, Map<String, List<double[]>> series,
                                 Map<String, Double> marks) {
        double xMax = 1;
        double yMax = 0;
        for (List<double[]> points : series.values()) {
            for (double[] p : points) {
                xMax = Math.max(xMax, p[0]);
                yMax = Math.max(yMax, p[1]);
            }
        }
        for (double m : marks.values()) xMax = Math.max(xMax, m);
        xMax = niceCeiling(xMax);
        yMax = niceCeiling(yMax <= 0 ? 1 : yMax * 1.05);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder s = new StringBuilder();
        openWithGrid(s, title, yMax);
        for (int i = 0; i <= X_TICKS; i++) {
            double v = xMax * i / X_TICKS;
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW * i / (double) X_TICKS, TOP + plotH + 18, trim(v)));
        }
        closeFrame(s, xLabel, yLabel);
        for (Map.Entry<String, Double> m : marks.entrySet()) {
            double x = LEFT + m.getValue() / xMax * plotW;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888888\""
                + " stroke-dasharray=\"3,3\"/>%n", x, TOP, x, TOP + plotH));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s</text>%n",
                x, TOP - 4, escape(m.getKey())));
        }
        int index = 0;
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            StringBuilder points = new StringBuilder();
            for (double[] p : e.getValue()) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + p[0] / xMax * plotW, yPos(p[1], yMax, plotH)));
            }
            polyline(s, points, index);
            legend(s, index, e.getKey());
            index++;
        }
        s.append("</svg>\n");
        return s.toString();
    }

    /** The SVG element, background, title and the horizontal grid with its labels from 0 to {@code yMax}. */
    private static void openWithGrid(StringBuilder s, String title, double yMax) {
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
            + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">%s</text>%n",
            LEFT + plotW / 2, escape(title)));
        for (int i = 0; i <= Y_TICKS; i++) {
            double v = yMax * i / Y_TICKS;
            double y = TOP + plotH - plotH * i / (double) Y_TICKS;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>%n",
                LEFT, y, LEFT + plotW, y));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 6,
                y + 4, trim(v)));
        }
    }

    /** The plot's border and the axis labels. */
    private static void closeFrame(StringBuilder s, String xLabel, String yLabel) {
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
            + " stroke=\"black\"/>%n", LEFT, TOP, plotW, plotH));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
            LEFT + plotW / 2, HEIGHT - 18, escape(xLabel)));
        s.append(String.format(Locale.ROOT, "<text x=\"20\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\">"
            + "%s</text>%n", TOP + plotH / 2, TOP + plotH / 2, escape(yLabel)));
    }

    private static void polyline(StringBuilder s, StringBuilder points, int index) {
        if (points.length() == 0) return;
        s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
            points.toString().trim(), COLORS[index % COLORS.length], dashAttribute(index)));
    }

    private static String dashAttribute(int index) {
        String dash = DASHES[index % DASHES.length];
        return dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"";
    }

    private static void legend(StringBuilder s, int index, String name) {
        String color = COLORS[index % COLORS.length];
        int ly = TOP + 10 + index * 20;
        int lx = WIDTH - RIGHT + 15;
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
            lx, ly, lx + 28, ly, color, dashAttribute(index)));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 34, ly + 4, escape(name)));
    }

    private static double xPos(int t, double xMin, double xMax, int plotW) {
        if (xMax == xMin) return LEFT + plotW / 2.0;
        return LEFT + (t - xMin) / (xMax - xMin) * plotW;
    }

    private static double yPos(double v, double yMax, int plotH) {
        return TOP + plotH - Math.max(0, v) / yMax * plotH;
    }

    /** 1, 2 or 5 times a power of ten, at least {@code v}. */
    static double niceCeiling(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= v) return m * p;
        }
        return 10 * p;
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
