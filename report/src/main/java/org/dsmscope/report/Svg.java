package org.dsmscope.report;

import java.util.List;

/**
 * A small SVG writer for the report's charts: one plot area with axes, grid lines and a legend, in a fixed size and
 * palette, so every chart of the report looks alike and the same data gives the same bytes. Elements that carry a
 * plotted number get {@code data-*} attributes with the number as the result's JSON holds it and a {@code <title>}
 * (shown on hover), so a reader and a test can both read it back.
 */
final class Svg {
    /** Width and height of a chart. */
    static final int W = 640;
    static final int H = 300;
    /** The plot area's margins: left (y ticks), right (legend), top, bottom (x labels). */
    static final int LEFT = 62;
    static final int RIGHT = 150;
    static final int TOP = 14;
    static final int BOTTOM = 46;
    /** Colours of series, in order (colour-blind-safe, after Okabe and Ito). */
    static final String[] PALETTE = {"#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#f0e442",
        "#000000", "#999999", "#8c564b", "#17becf", "#bcbd22"};

    final StringBuilder b = new StringBuilder(4096);
    final int width;
    final int height;

    Svg(String id, String label, int width, int height) {
        this.width = width;
        this.height = height;
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"").append(Fmt.esc(id)).append("\" width=\"")
                .append(width).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width)
                .append(' ').append(height).append("\" role=\"img\" aria-label=\"").append(Fmt.esc(label))
                .append("\" font-family=\"sans-serif\" font-size=\"11\">");
        b.append("<rect width=\"").append(width).append("\" height=\"").append(height).append("\" fill=\"#fff\"/>");
    }

    static String color(int i) {
        return PALETTE[i % PALETTE.length];
    }

    /** The largest "nice" number (1, 2, 2.5, 5 × 10^k) at or above v; 1 for v ≤ 0. */
    static double niceMax(double v) {
        if (!(v > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v * (1 - 1e-12)) {
                return m * p;
            }
        }
        return 10 * p;
    }

    /** Text at (x, y); anchor start, middle or end; optional rotation about the point. */
    void text(double x, double y, String anchor, String s, int rotate) {
        b.append("<text x=\"").append(Fmt.xy(x)).append("\" y=\"").append(Fmt.xy(y)).append('"');
        if (!anchor.equals("start")) {
            b.append(" text-anchor=\"").append(anchor).append('"');
        }
        if (rotate != 0) {
            b.append(" transform=\"rotate(").append(rotate).append(' ').append(Fmt.xy(x)).append(' ')
                    .append(Fmt.xy(y)).append(")\"");
        }
        b.append('>').append(Fmt.esc(s)).append("</text>");
    }

    void line(double x1, double y1, double x2, double y2, String stroke) {
        b.append("<line x1=\"").append(Fmt.xy(x1)).append("\" y1=\"").append(Fmt.xy(y1)).append("\" x2=\"")
                .append(Fmt.xy(x2)).append("\" y2=\"").append(Fmt.xy(y2)).append("\" stroke=\"").append(stroke)
                .append("\"/>");
    }

    /**
     * A y axis from 0 to {@code max} over the plot area from {@code top} to {@code bottom} at x = {@code left},
     * with five grid lines ending at {@code right}; the label rotated beside it.
     */
    void yAxis(double max, String label, boolean percent, double left, double right, double top, double bottom) {
        for (int i = 0; i <= 5; i++) {
            double v = max * i / 5;
            double y = bottom - (bottom - top) * i / 5;
            line(left, y, right, y, i == 0 ? "#444" : "#e4e4e4");
            text(left - 4, y + 4, "end", percent ? Fmt.tick(v) + "%" : Fmt.tick(v), 0);
        }
        line(left, top, left, bottom, "#444");
        text(14, (top + bottom) / 2, "middle", label, -90);
    }

    /** A legend of coloured squares and names, one per line, at the right of the plot area. */
    void legend(List<String> names, List<String> colors, double x, double y) {
        legend(names, colors, null, x, y);
    }

    /** A legend as {@link #legend(List, List, double, double)}, a dashed line sample for names with {@code dashed}. */
    void legend(List<String> names, List<String> colors, List<Boolean> dashed, double x, double y) {
        for (int i = 0; i < names.size(); i++) {
            double yy = y + 15 * i;
            if (dashed != null && dashed.get(i)) {
                b.append("<line x1=\"").append(Fmt.xy(x)).append("\" y1=\"").append(Fmt.xy(yy - 4)).append("\" x2=\"")
                        .append(Fmt.xy(x + 11)).append("\" y2=\"").append(Fmt.xy(yy - 4)).append("\" stroke=\"")
                        .append(colors.get(i)).append("\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>");
            } else {
                b.append("<rect x=\"").append(Fmt.xy(x)).append("\" y=\"").append(Fmt.xy(yy - 9))
                        .append("\" width=\"10\" height=\"10\" fill=\"").append(colors.get(i)).append("\"/>");
            }
            String n = names.get(i);
            text(x + 14, yy, "start", n.length() > 22 ? n.substring(0, 21) + "…" : n, 0);
        }
    }

    /** Opens an element with a title for hover, e.g. {@code <rect ...>}; the caller appends the attributes. */
    static void title(StringBuilder b, String title) {
        b.append("<title>").append(Fmt.esc(title)).append("</title>");
    }

    String end() {
        return b.append("</svg>").toString();
    }
}
