package org.dsmscope.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Horizontal bars, one row per item, largest first as given: a profile (seed 003 §4: "how the communication costs
 * during execution are distributed among data structures, source code lines, and causes"). The label is at the
 * left, the bar's length is the value over the largest, the share of the total at the bar's end. Each bar carries
 * {@code data-series}, {@code data-x} (the label), {@code data-value} (the number as the JSON holds it) and
 * {@code data-share}.
 */
final class RankedBars {
    /** Rows drawn; the table under the figure holds more. */
    static final int MAX_ROWS = 15;
    private static final int ROW = 18;
    private static final int LABEL = 420;
    private static final int WIDTH = 860;

    private record Item(String label, double value, String raw, String share, String note) {
    }

    private final String id;
    private final String series;
    private final String unit;
    private final List<Item> items = new ArrayList<>();

    RankedBars(String id, String series, String unit) {
        this.id = id;
        this.series = series;
        this.unit = unit;
    }

    /** Adds a row: its label, its value (raw: as the JSON writes it), its share (raw) and a note for the hover. */
    RankedBars add(String label, double value, String raw, String share, String note) {
        if (items.size() < MAX_ROWS) {
            items.add(new Item(label, value, raw, share, note));
        }
        return this;
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    String svg() {
        double max = 0;
        for (Item it : items) {
            max = Math.max(max, it.value);
        }
        int height = Svg.TOP + ROW * items.size() + 30;
        Svg g = new Svg(id, series + " by " + unit, WIDTH, height);
        double left = LABEL;
        double right = WIDTH - 70;
        StringBuilder b = g.b;
        for (int i = 0; i < items.size(); i++) {
            Item it = items.get(i);
            double y = Svg.TOP + ROW * i;
            double w = max > 0 ? (right - left) * it.value / max : 0;
            String label = it.label.length() > 72 ? it.label.substring(0, 71) + "…" : it.label;
            g.text(left - 4, y + 12, "end", label, 0);
            b.append("<rect class=\"bar\" x=\"").append(Fmt.xy(left)).append("\" y=\"").append(Fmt.xy(y + 2))
                    .append("\" width=\"").append(Fmt.xy(it.value > 0 ? Math.max(w, 0.5) : 0))
                    .append("\" height=\"").append(ROW - 4).append("\" fill=\"").append(Svg.color(0))
                    .append("\" data-series=\"").append(Fmt.esc(series)).append("\" data-x=\"")
                    .append(Fmt.esc(it.label)).append("\" data-value=\"").append(it.raw).append("\" data-share=\"")
                    .append(it.share).append("\">");
            double share = Double.parseDouble(it.share) * 100;
            Svg.title(b, it.label + ": " + Fmt.count(it.value) + " " + unit + ", " + Fmt.pct(share)
                    + (it.note.isEmpty() ? "" : ", " + it.note));
            b.append("</rect>");
            g.text(left + w + 4, y + 12, "start", Fmt.pct(share), 0);
        }
        double axis = Svg.TOP + ROW * items.size() + 2;
        g.line(left, Svg.TOP, left, axis, "#444");
        g.text((left + right) / 2, axis + 18, "middle", series + " (" + unit + "), share of the total at the bar's end",
                0);
        return g.end();
    }
}
