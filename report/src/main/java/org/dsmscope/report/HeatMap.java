package org.dsmscope.report;

/**
 * The processor-pair communication matrix as a heat map (seed 001 Figure 9): row i = from Pi, column j = to Pj,
 * darker = more events; each cell carries {@code data-from}, {@code data-to} and {@code data-value} and shows its
 * count on hover.
 */
final class HeatMap {
    private HeatMap() {
    }

    static String svg(String id, String label, long[][] m) {
        int p = m.length;
        long max = 0;
        for (long[] row : m) {
            for (long v : row) {
                max = Math.max(max, v);
            }
        }
        double cell = Math.max(4, Math.min(40, 320.0 / Math.max(p, 1)));
        int left = 44;
        int top = 44;
        int size = (int) Math.ceil(cell * p);
        Svg g = new Svg(id, label, Math.max(left + size + 90, 200), top + Math.max(size, 84) + 12);
        g.text(4, 12, "start", label, 0);
        g.text(left + size / 2.0, 26, "middle", "to processor", 0);
        g.text(12, top + size / 2.0, "middle", "from processor", -90);
        StringBuilder b = g.b;
        int every = Math.max(1, (int) Math.ceil(p / 16.0));
        for (int i = 0; i < p; i++) {
            if (i % every == 0) {
                g.text(left - 4, top + cell * (i + 0.5) + 4, "end", "P" + i, 0);
            }
            // column labels need about 24 pixels each
            if (i % (every * (int) Math.ceil(24 / cell)) == 0) {
                g.text(left + cell * (i + 0.5), top - 4, "middle", "P" + i, 0);
            }
            for (int j = 0; j < p; j++) {
                long v = m[i][j];
                b.append("<rect class=\"cell\" x=\"").append(Fmt.xy(left + cell * j)).append("\" y=\"")
                        .append(Fmt.xy(top + cell * i)).append("\" width=\"").append(Fmt.xy(cell)).append("\" height=\"")
                        .append(Fmt.xy(cell)).append("\" fill=\"").append(shade(v, max)).append("\" data-from=\"")
                        .append(i).append("\" data-to=\"").append(j).append("\" data-value=\"").append(v).append("\">");
                Svg.title(b, "P" + i + " → P" + j + ": " + Fmt.count(v) + " events");
                b.append("</rect>");
            }
        }
        // the scale: white = 0, darkest = the largest cell
        double sx = left + size + 16;
        for (int k = 0; k <= 4; k++) {
            b.append("<rect x=\"").append(Fmt.xy(sx)).append("\" y=\"").append(Fmt.xy(top + 16.0 * k))
                    .append("\" width=\"12\" height=\"12\" stroke=\"#ccc\" fill=\"")
                    .append(shade(Math.round(max * k / 4.0), max)).append("\"/>");
            g.text(sx + 16, top + 16.0 * k + 10, "start", Fmt.tick(max * k / 4.0), 0);
        }
        return g.end();
    }

    /** White for 0, then lighter to darker blue, on a square-root scale (small counts stay visible). */
    static String shade(long v, long max) {
        if (v <= 0 || max <= 0) {
            return "#ffffff";
        }
        double t = Math.sqrt((double) v / max);
        int r = (int) Math.round(222 - t * (222 - 8));
        int gr = (int) Math.round(235 - t * (235 - 48));
        int bl = (int) Math.round(247 - t * (247 - 107));
        return String.format("#%02x%02x%02x", r, gr, bl);
    }
}
