package org.dsmscope.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * Lines through points (seed 001 Figure 3's access-age CDF, the speedup over processors, TDAT's rate over time):
 * x linear or on a log2 scale, one line per series, points as circles carrying {@code data-series}, {@code data-x}
 * and {@code data-value} (the JSON's numbers), and marked points (the working-set knees) as larger rings of class
 * {@code knee}.
 */
final class LineChart {
    /**
     * One line: name, x and y per point (y NaN: no point), the raw value behind each y, knee flags; a reference line
     * is dashed and has no points; {@code color} is an index of {@link Svg#color} (-1: the line's own index) and
     * {@code dash} draws the line dashed with its points.
     */
    record Line(String name, double[] x, double[] y, String[] raw, boolean[] knee, boolean dashed, int color,
            boolean dash) {
    }

    private final String id;
    private final String xLabel;
    private final String yLabel;
    private final boolean log2X;
    private final boolean percent;
    private final DoubleFunction<String> xTick;
    private final List<Line> lines = new ArrayList<>();
    private boolean dots = true;

    LineChart(String id, String xLabel, String yLabel, boolean log2X, boolean percent, DoubleFunction<String> xTick) {
        this.id = id;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.log2X = log2X;
        this.percent = percent;
        this.xTick = xTick;
    }

    LineChart add(String name, double[] x, double[] y, String[] raw, boolean[] knee) {
        lines.add(new Line(name, x, y, raw, knee, false, -1, false));
        return this;
    }

    /**
     * A line with its points in the colour {@code color} (an index of {@link Svg#color}), dashed when {@code dash}:
     * two lines of one run (e.g. the thread and global access-age scopes) share a colour.
     */
    LineChart add(String name, double[] x, double[] y, String[] raw, boolean[] knee, int color, boolean dash) {
        lines.add(new Line(name, x, y, raw, knee, false, color, dash));
        return this;
    }

    /** A dashed reference line without points (e.g. the ideal speedup). */
    LineChart reference(String name, double[] x, double[] y) {
        lines.add(new Line(name, x, y, null, null, true, -1, true));
        return this;
    }

    /** Draws the lines without a circle per point (long series such as bins over time). */
    LineChart withoutDots() {
        dots = false;
        return this;
    }

    boolean isEmpty() {
        for (Line l : lines) {
            if (!l.dashed && l.x.length > 0) {
                return false;
            }
        }
        return true;
    }

    private double sx(double x) {
        return log2X ? Math.log(Math.max(x, 1e-300)) / Math.log(2) : x;
    }

    String svg() {
        double xmin = Double.POSITIVE_INFINITY;
        double xmax = Double.NEGATIVE_INFINITY;
        double ymax = 0;
        for (Line l : lines) {
            for (int i = 0; i < l.x.length; i++) {
                if (Double.isFinite(l.y[i])) {
                    xmin = Math.min(xmin, sx(l.x[i]));
                    xmax = Math.max(xmax, sx(l.x[i]));
                    ymax = Math.max(ymax, l.y[i]);
                }
            }
        }
        if (!(xmin <= xmax)) {
            xmin = 0;
            xmax = 1;
        }
        if (xmax == xmin) {
            xmin -= 1;
            xmax += 1;
        }
        if (!log2X && xmin > 0 && xmin < xmax / 4) {
            xmin = 0;
        }
        double ytop = percent && ymax > 50 && ymax <= 100 ? 100 : Svg.niceMax(ymax);
        Svg g = new Svg(id, yLabel + " by " + xLabel, Svg.W, Svg.H);
        double left = Svg.LEFT;
        double right = Svg.W - Svg.RIGHT;
        double top = Svg.TOP;
        double bottom = Svg.H - Svg.BOTTOM;
        g.yAxis(ytop, yLabel, percent, left, right, top, bottom);
        double x0 = xmin;
        double span = xmax - xmin;
        DoubleFunction<Double> px = v -> left + 8 + (right - left - 16) * (sx(v) - x0) / span;
        DoubleFunction<Double> py = v -> bottom - (bottom - top) * v / ytop;
        // x ticks: every integer power on a log2 axis (thinned to at most 12), else nice steps
        List<Double> ticks = new ArrayList<>();
        if (log2X) {
            int step = Math.max(1, (int) Math.ceil((xmax - xmin) / 12));
            for (long k = (long) Math.ceil(xmin); k <= xmax; k += step) {
                ticks.add(Math.pow(2, k));
            }
        } else {
            double stepv = Svg.niceMax(span / 8);
            for (double v = Math.ceil(xmin / stepv) * stepv; v <= xmax + 1e-9; v += stepv) {
                ticks.add(v);
            }
        }
        for (double t : ticks) {
            double x = px.apply(t);
            g.line(x, bottom, x, bottom + 4, "#444");
            g.text(x, bottom + 15, "middle", xTick.apply(t), 0);
        }
        g.text((left + right) / 2, Svg.H - 10, "middle", xLabel, 0);
        StringBuilder b = g.b;
        List<String> names = new ArrayList<>();
        List<String> colors = new ArrayList<>();
        List<Boolean> dashes = new ArrayList<>();
        for (int li = 0; li < lines.size(); li++) {
            Line l = lines.get(li);
            String color = l.dashed ? "#888" : Svg.color(l.color >= 0 ? l.color : li);
            StringBuilder path = new StringBuilder();
            for (int i = 0; i < l.x.length; i++) {
                if (Double.isFinite(l.y[i])) {
                    path.append(path.length() == 0 ? "M" : "L").append(Fmt.xy(px.apply(l.x[i]))).append(' ')
                            .append(Fmt.xy(py.apply(l.y[i])));
                }
            }
            if (path.length() > 0) {
                b.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(color)
                        .append("\" stroke-width=\"").append(l.dashed ? "1\" stroke-dasharray=\"4 3"
                                : l.dash ? "1.5\" stroke-dasharray=\"5 3" : "1.5")
                        .append("\"/>");
            }
            for (int i = 0; i < l.x.length && !l.dashed; i++) {
                if (!Double.isFinite(l.y[i])) {
                    continue;
                }
                boolean knee = l.knee != null && l.knee[i];
                if (!dots && !knee) {
                    continue;
                }
                b.append("<circle class=\"").append(knee ? "pt knee" : "pt").append("\" cx=\"")
                        .append(Fmt.xy(px.apply(l.x[i]))).append("\" cy=\"").append(Fmt.xy(py.apply(l.y[i])))
                        .append("\" r=\"").append(knee ? "5\" fill=\"none\" stroke-width=\"2\" stroke=\""
                                : "2.5\" fill=\"").append(color).append("\" data-series=\"").append(Fmt.esc(l.name))
                        .append("\" data-x=\"").append(Fmt.raw(l.x[i])).append("\" data-value=\"").append(l.raw[i])
                        .append("\">");
                Svg.title(b, l.name + ": " + xLabel + " " + xTick.apply(l.x[i]) + ", " + yLabel + " "
                        + (percent ? Fmt.pct(l.y[i]) : Fmt.count(l.y[i])) + (knee ? " (knee)" : ""));
                b.append("</circle>");
            }
            names.add(l.name);
            colors.add(color);
            dashes.add(l.dash);
        }
        int shown = Math.min(16, names.size());
        g.legend(names.subList(0, shown), colors, dashes, right + 12, top + 10);
        return g.end();
    }
}
