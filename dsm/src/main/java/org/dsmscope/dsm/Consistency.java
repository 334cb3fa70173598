package org.dsmscope.dsm;

/**
 * Consistency of a segment (seed 002 §3.2): a temporal component (release: the application calls
 * {@code putUpdates} / {@code getUpdates}; eventual: the runtime propagates within a lag t) and, for sequential
 * and associative segments, a spatial one (in order: every replica sees the same order, through the segment's
 * owner; out of order: replicas apply updates as they arrive, orders may differ).
 */
public final class Consistency {
    /** Temporal component. */
    public enum Temporal { RELEASE, EVENTUAL }

    /** Spatial component. */
    public enum Spatial { IN_ORDER, OUT_OF_ORDER }

    /** When replicas become consistent. */
    public final Temporal temporal;
    /** Ordering of data within replicas. */
    public final Spatial spatial;
    /** Lag t in milliseconds for eventual consistency. */
    public final long lagMillis;

    private Consistency(Temporal temporal, Spatial spatial, long lagMillis) {
        this.temporal = temporal;
        this.spatial = spatial;
        this.lagMillis = lagMillis;
    }

    /** Release consistency, in order. */
    public static Consistency release() {
        return new Consistency(Temporal.RELEASE, Spatial.IN_ORDER, 0);
    }

    /** Eventual consistency with lag {@code lagMillis}, in order. */
    public static Consistency eventual(long lagMillis) {
        if (lagMillis < 2) {
            throw new IllegalArgumentException("lag must be at least 2 ms");
        }
        return new Consistency(Temporal.EVENTUAL, Spatial.IN_ORDER, lagMillis);
    }

    /** The same temporal component with out-of-order spatial consistency. */
    public Consistency outOfOrder() {
        return new Consistency(temporal, Spatial.OUT_OF_ORDER, lagMillis);
    }

    /** The same temporal component with in-order spatial consistency. */
    public Consistency inOrder() {
        return new Consistency(temporal, Spatial.IN_ORDER, lagMillis);
    }

    /** Code stored in Create_Seg events: temporal*2 + spatial. */
    public int code() {
        return temporal.ordinal() * 2 + spatial.ordinal();
    }

    @Override
    public String toString() {
        return (temporal == Temporal.RELEASE ? "release" : "eventual(" + lagMillis + "ms)") + "/"
                + (spatial == Spatial.IN_ORDER ? "in-order" : "out-of-order");
    }
}
