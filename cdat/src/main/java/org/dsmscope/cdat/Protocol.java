package org.dsmscope.cdat;

/**
 * The eight variants of the directory protocol (seed 000 Table 2): whether a remote line a load misses on may be
 * loaded exclusive (else it is loaded shared), whether replacing a clean exclusive line is announced to the home
 * ({@code update_tag}), and whether a dirty line moves straight from cache to cache ({@code c2c_*}) instead of
 * through its home.
 *
 * <pre>
 * variant  remote lines            exclusive replacement  direct transactions
 *    1     maybe loaded exclusive  announced              supported
 *    2     loaded shared           announced              not supported
 *    3     loaded shared           not announced          not supported
 *    4     maybe loaded exclusive  not announced          not supported
 *    5     maybe loaded exclusive  not announced          supported
 *    6     maybe loaded exclusive  announced              not supported
 *    7     loaded shared           not announced          supported
 *    8     loaded shared           announced              supported
 * </pre>
 */
public final class Protocol {
    private static final boolean[] EXCLUSIVE = {false, true, false, false, true, true, true, false, false};
    private static final boolean[] ANNOUNCED = {false, true, true, false, false, false, true, false, true};
    private static final boolean[] DIRECT = {false, true, false, false, false, true, false, true, true};

    /** The variant number, 1..8. */
    public final int variant;
    /** Remote lines maybe loaded exclusive (a load miss on an idle remote line gets {@code data_priv}). */
    public final boolean remoteExclusive;
    /** Replacing a clean exclusive line sends {@code update_tag}. */
    public final boolean announceExclusive;
    /** Cache-to-cache transfers ({@code c2c_*}) answer recalls of dirty lines. */
    public final boolean direct;

    /** Variant {@code v} of Table 2. */
    public Protocol(int v) {
        if (v < 1 || v > 8) {
            throw new IllegalArgumentException("protocol variant " + v + " out of range (1..8)");
        }
        variant = v;
        remoteExclusive = EXCLUSIVE[v];
        announceExclusive = ANNOUNCED[v];
        direct = DIRECT[v];
    }

    /** Table 2's row, in words. */
    public String describe() {
        return "variant " + variant + ": remote lines " + (remoteExclusive ? "maybe loaded exclusive" : "loaded shared")
                + ", exclusive replacement " + (announceExclusive ? "announced" : "not announced")
                + ", direct transactions " + (direct ? "supported" : "not supported");
    }
}
