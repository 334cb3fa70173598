package org.dsmscope.dsm;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * A segment of the global address space (seed 002 §3.1) with its type, consistency model and copy set. The
 * bookkeeping here is shared by the three segment types: the copy set, updates sent to each member and received
 * from each writer (per pair, in order: updates travel by UNICAST3 to each copy-set member), and updates
 * received but not yet applied (release consistency applies them at {@code getUpdates}).
 *
 * <p>Threading: the application thread and JGroups receiver threads use a segment; every method synchronizes
 * on the segment.
 */
public abstract class Segment {
    /** Segment id (allocation order, the same in every member). */
    public final int id;
    /** Segment type. */
    public final SegmentType type;
    /** Consistency model. */
    public final Consistency consistency;
    /** First address of the segment in the global address space. */
    public final long base;
    /** Size in the address space (bytes). */
    public final int size;
    /** The member that orders in-order updates (rank 0). */
    public final int owner;

    final TreeSet<Integer> copySet = new TreeSet<>();
    final Map<Integer, Long> sentTo = new HashMap<>();
    final Map<Integer, Long> recvFrom = new HashMap<>();
    final ArrayDeque<Object[]> pending = new ArrayDeque<>();
    /**
     * Held by the owner of an ordered segment from ordering an update to publishing it, so that updates are sent
     * in the order they were applied here (the application thread and a message thread both order updates).
     * Not the segment's monitor: arriving updates and requests never wait for a send.
     */
    final Object orderLock = new Object();
    long putSeq;
    long applied;
    long copySetSeq;
    final TreeSet<Integer> sharingWith = new TreeSet<>();

    Segment(int id, SegmentType type, Consistency consistency, long base, int size, int owner) {
        this.id = id;
        this.type = type;
        this.consistency = consistency;
        this.base = base;
        this.size = size;
        this.owner = owner;
    }

    /** Members currently in the copy set. */
    public synchronized TreeSet<Integer> copySet() {
        return new TreeSet<>(copySet);
    }

    /** True when updates are routed through the owner to keep one order everywhere. */
    boolean ordered() {
        return type != SegmentType.RANDOM && consistency.spatial == Consistency.Spatial.IN_ORDER;
    }

    /** True when this member changed the segment since its last putUpdates. */
    abstract boolean dirty();

    /** The local changes since the last put, encoded; null if none. Resets the local change state. */
    abstract byte[] takeLocal();

    /** Owner only (in-order): puts a writer's changes into the one order, applies them here, returns what to publish. */
    abstract byte[] order(byte[] local);

    /** Applies an update from {@code writer}; returns {merged bytes, conflicting bytes} when it merged with local writes. */
    abstract long[] apply(int writer, byte[] payload);

    /** Size of a payload for messages (bytes). */
    static int len(byte[] b) {
        return b == null ? 0 : b.length;
    }
}
