package org.dsmscope.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Bars over categories (seed 001 Figures 2, 5, 6, 7, 8, 10, 11 draw this way): one bar per series in each
 * category, side by side (grouped) or on top of each other (stacked). Each bar carries {@code data-series},
 * {@code data-x} and {@code data-value} (the number as the result holds it, e.g. a count) while its height may be a
 * derived share.
 */
final class BarChart {
    /** One series: its name, the plotted heights per category and the raw values behind them. */
    record Series(String name, double[] heights, String[] raw) {
    }

    private final String id;
    private final String xLabel;
    private final String yLabel;
    private final boolean stacked;
    private final boolean percent;
    private final List<String> categories;
    private final List<Series> series = new ArrayList<>();

    BarChart(String id, String xLabel, String yLabel, boolean stacked, boolean percent, List<String> categories) {
        this.id = id;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.stacked = stacked;
        this.percent = percent;
        this.categories = categories;
    }

    BarChart add(String name, double[] heights, String[] raw) {
        series.add(new Series(name, heights, raw));
        return this;
    }

    boolean isEmpty() {
        return series.isEmpty() || categories.isEmpty();
    }

    String svg() {
        int n = categories.size();
        double max = 0;
        for (int c = 0; c < n; c++) {
            double sum = 0;
            for (Series s : series) {
                double h = s.heights[c];
                if (Double.isFinite(h)) {
                    sum = stacked ? sum + h : Math.max(sum, h);
                }
            }
            max = Math.max(max, sum);
        }
        max = percent && max > 50 && max <= 100 ? 100 : Svg.niceMax(max);
        Svg g = new Svg(id, yLabel + " by " + xLabel, Svg.W, Svg.H);
        double left = Svg.LEFT;
        double right = Svg.W - Svg.RIGHT;
        double top = Svg.TOP;
        double bottom = Svg.H - Svg.BOTTOM;
        g.yAxis(max, yLabel, percent, left, right, top, bottom);
        double slot = (right - left) / n;
        double groupWidth = slot * 0.8;
        double barWidth = stacked ? groupWidth : groupWidth / series.size();
        StringBuilder b = g.b;
        for (int c = 0; c < n; c++) {
            double x0 = left + slot * c + slot * 0.1;
            double base = bottom;
            for (int s = 0; s < series.size(); s++) {
                Series se = series.get(s);
                double h = se.heights[c];
                if (!Double.isFinite(h)) {
                    continue;
                }
                double px = (bottom - top) * h / max;
                double x = stacked ? x0 : x0 + barWidth * s;
                double y = stacked ? base - px : bottom - px;
                b.append("<rect class=\"bar\" x=\"").append(Fmt.xy(x)).append("\" y=\"").append(Fmt.xy(y))
                        .append("\" width=\"").append(Fmt.xy(Math.max(barWidth - (stacked ? 0 : 1), 1)))
                        .append("\" height=\"").append(Fmt.xy(h > 0 ? Math.max(px, 0.5) : 0)).append("\" fill=\"")
                        .append(Svg.color(s)).append("\" data-series=\"").append(Fmt.esc(se.name))
                        .append("\" data-x=\"").append(Fmt.esc(categories.get(c))).append("\" data-value=\"")
                        .append(se.raw[c]).append("\">");
                String shown = percent ? Fmt.pct(h) + " (" + Fmt.count(Double.parseDouble(se.raw[c])) + ")"
                        : Fmt.count(Double.parseDouble(se.raw[c]));
                Svg.title(b, se.name + ", " + xLabel + " " + categories.get(c) + ": " + shown);
                b.append("</rect>");
                if (stacked) {
                    base -= px;
                }
            }
            String label = categories.get(c);
            int every = Math.max(1, (int) Math.ceil(n / 24.0));
            if (c % every == 0) {
                g.text(left + slot * (c + 0.5), bottom + 14, "middle", label.length() > 14 ? label.substring(0, 13)
                        + "…" : label, 0);
            }
        }
        g.text((left + right) / 2, Svg.H - 10, "middle", xLabel, 0);
        List<String> names = new ArrayList<>();
        List<String> colors = new ArrayList<>();
        for (int s = 0; s < series.size() && s < 16; s++) {
            names.add(series.get(s).name);
            colors.add(Svg.color(s));
        }
        g.legend(names, colors, right + 12, top + 10);
        return g.end();
    }
}
