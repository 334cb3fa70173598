package org.dsmscope.report;

import java.util.ArrayList;
import java.util.List;

/**
 * One figure of the report: an id (also the file name under {@code --figures}), a title, the seed figure or table
 * it reproduces, a one-sentence guide to reading it, zero or more charts (inline SVG) and the numbers behind them
 * as a table.
 */
final class Figure {
    final String id;
    final String title;
    final String seed;
    final String guide;
    final List<String> svgs = new ArrayList<>();
    final List<String> header = new ArrayList<>();
    final List<List<String>> rows = new ArrayList<>();
    /** Whether the table is open by default (always for a figure that is only a table). */
    boolean open;

    Figure(String id, String title, String seed, String guide) {
        this.id = id;
        this.title = title;
        this.seed = seed;
        this.guide = guide;
    }

    Figure svg(String s) {
        svgs.add(s);
        return this;
    }

    Figure header(List<String> h) {
        header.addAll(h);
        return this;
    }

    Figure open() {
        open = true;
        return this;
    }

    Figure row(List<String> r) {
        rows.add(r);
        return this;
    }
}
