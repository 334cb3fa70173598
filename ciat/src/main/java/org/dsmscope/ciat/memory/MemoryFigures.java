package org.dsmscope.ciat.memory;

/** The twenty memory-usage figures of seed 000 §4.5, in the seed's order. */
public final class MemoryFigures implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
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

    /** Ingredient of figure 19: bytes accessed by data accesses. */
    public long dataBytesAccessed;
    /** Ingredient of figure 20: fetched instructions. */
    public long fetchedInstructions;
    /** Ingredient of figure 20: touched instruction starts. */
    public long instructionStarts;

    /** Computes figures 19 and 20 from the counts and ingredients. */
    public void indices() {
        dataLocalityIndex = counts[4] == 0 ? 0 : (double) dataBytesAccessed / counts[4];
        codeLocalityIndex = instructionStarts == 0 ? 0 : (double) fetchedInstructions / instructionStarts;
    }

    /** The figures of several partitions' pages together. */
    public static MemoryFigures merge(java.util.List<MemoryFigures> parts) {
        MemoryFigures m = new MemoryFigures();
        for (MemoryFigures p : parts) {
            for (int i = 0; i < m.counts.length; i++) {
                m.counts[i] += p.counts[i];
            }
            m.dataBytesAccessed += p.dataBytesAccessed;
            m.fetchedInstructions += p.fetchedInstructions;
            m.instructionStarts += p.instructionStarts;
        }
        m.indices();
        return m;
    }

    /** Figure {@code n} (1..18). */
    public long get(int n) {
        return counts[n - 1];
    }
}
