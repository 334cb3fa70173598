package org.dsmscope.monitor.event;

/** The three monitoring levels of seed 002 §4.1; each is a class of events that can be switched at run time. */
public enum Level {
    /** Programming model (§4.1.1): segments, consistency points, eventcounts, sequencers. */
    PROGRAM,
    /** Logical messages (§4.1.2): send / receive of data, request and reply messages. */
    MESSAGE,
    /** Transport protocol (§4.1.3): fragments, ACKs, NACKs, retransmissions, duplicates, discards. */
    TRANSPORT;

    /** The bit of this level in an enabled-classes mask. */
    public int bit() {
        return 1 << ordinal();
    }

    /** Mask with every level enabled. */
    public static final int ALL = 7;

    /** The lower-case name used on the command line. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Parses a comma-separated list of levels ({@code program}, {@code message}, {@code transport}, or {@code all},
     * {@code none}) into a mask; throws {@link IllegalArgumentException} naming the bad word.
     */
    public static int parseMask(String list) {
        int mask = 0;
        for (String w : list.split(",")) {
            String word = w.strip().toLowerCase(java.util.Locale.ROOT);
            if (word.equals("all")) {
                mask |= ALL;
            } else if (word.equals("none")) {
                mask |= 0;
            } else {
                Level found = null;
                for (Level l : values()) {
                    if (l.label().equals(word)) {
                        found = l;
                    }
                }
                if (found == null) {
                    throw new IllegalArgumentException("unknown monitoring level '" + word
                            + "' (expected program, message, transport, all or none)");
                }
                mask |= found.bit();
            }
        }
        return mask;
    }

    /** The comma-separated names of the levels in {@code mask} ({@code none} if empty). */
    public static String describe(int mask) {
        StringBuilder b = new StringBuilder();
        for (Level l : values()) {
            if ((mask & l.bit()) != 0) {
                b.append(b.length() == 0 ? "" : ",").append(l.label());
            }
        }
        return b.length() == 0 ? "none" : b.toString();
    }
}
