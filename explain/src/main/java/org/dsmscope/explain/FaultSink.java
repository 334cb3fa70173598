package org.dsmscope.explain;

/**
 * What receives a page-fault and synchronization trace (seed 003, SPEC §8) record by record: the DSM simulation
 * writes into one, the text reader of {@link FaultFormat} reads into one. Faults are numbered from 0 in the order
 * they come; a synchronization record names the units it invalidates at its processor and, for each, the write
 * faults whose write notices caused it.
 */
public interface FaultSink {
    /** Synchronization kinds: lock acquire (also ldcw). */
    int ACQUIRE = 0;
    /** Barrier departure. */
    int BARRIER = 1;
    /** Wake-up: condition wait returned, latch or semaphore acquired. */
    int WAKEUP = 2;
    /** Join of an ended thread. */
    int JOIN = 3;
    /** A spawned thread's start (it acquires what its parent released). */
    int START = 4;
    /** Cache-line granularity: another processor's write invalidated the copy (hardware coherence). */
    int INVALIDATE = 5;
    /** Names of the kinds, by number, as the text format writes them. */
    String[] KIND_NAMES = {"acquire", "barrier", "wakeup", "join", "start", "invalidate"};

    /**
     * Fault {@code id} (the count of faults before it): at global {@code time} processor {@code proc} faulted on
     * {@code unit} (page or line number) reading or writing byte {@code address} (-1 unknown); {@code site} is the
     * code address of the instruction (-1 unknown) or, when negative below -1, {@code -2 - i} for site name i of
     * {@link #siteName}; the access covers bytes {@code offset .. offset + size - 1} of the unit ({@code offset}
     * -1: unknown).
     */
    void fault(int id, long time, int proc, long unit, boolean write, long address, long site, int offset, int size);

    /** A fault whose bytes within the unit are unknown. */
    default void fault(int id, long time, int proc, long unit, boolean write, long address, long site) {
        fault(id, time, proc, unit, write, address, site, -1, 0);
    }

    /**
     * A synchronization operation at {@code time} by {@code proc} of {@code kind}: it invalidates {@code
     * units[i]} because of write fault {@code faults[i]}, for i &lt; {@code n} (sorted by unit, then fault).
     */
    void sync(long time, int proc, int kind, long[] units, int[] faults, int n);

    /** Site name number {@code i} (text sites of a trace made elsewhere) is {@code name}; before its first use. */
    default void siteName(int i, String name) {
    }
}
