package org.dsmscope.ciat.memory;

/** The twenty memory-usage figures of seed 000 §4.5, in the seed's order. */
public final class MemoryFigures {
    /** JSON / report names of the twenty figures, in the seed's order. */
    public static final String[] NAMES = {"touchedPages", "sharedPages", "rangeSharedPages", "touchedBytes",
        "touchedDataBytes", "touchedCodeBytes", "sharedBytes", "pageSharedBytes", "rangeSharedBytes", "accesses",
        "dataAccesses", "sharedDataAccesses", "pageSharedDataAccesses", "rangeSharedDataAccesses", "codeAccesses",
        "sharedCodeAccesses", "pageSharedCodeAccesses", "rangeSharedCodeAccesses", "dataLocalityIndex",
        "codeLocalityIndex"};

    /** Figures 1&ndash;18 (index 0&ndash;17). */
    public final long[] counts = new long[18];
    /** Figure 19: accessed data bytes / touched data locations (0 if none). */
    public double dataLocalityIndex;
    /** Figure 20: fetched instructions / touched instructions (0 if none). */
    public double codeLocalityIndex;

    /** Figure {@code n} (1..18). */
    public long get(int n) {
        return counts[n - 1];
    }
}
