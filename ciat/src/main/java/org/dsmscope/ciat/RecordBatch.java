package org.dsmscope.ciat;

import java.util.concurrent.atomic.AtomicInteger;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;

/**
 * A batch of replay callbacks in primitive arrays, handed from the replay thread to CIAT's worker threads by
 * {@link ParallelCiat} (SPEC §4 "Partitioning"). Preallocated and recycled: appending a record allocates nothing
 * (phase records, a few per run, carry copies of the replay's {@link Phase} and {@link PhaseTimes}). Every worker
 * reads the whole batch; {@link #readers} counts the workers still reading it, the last one recycles it.
 */
final class RecordBatch {
    static final byte LOAD = 0;
    static final byte STORE = 1;
    static final byte SYNC_LOAD = 2;
    static final byte SYNC_STORE = 3;
    static final byte FETCH = 4;
    static final byte BRANCH = 5;
    static final byte CALL = 6;
    static final byte PHASE_BEGIN = 7;
    static final byte PHASE_END = 8;
    static final byte END = 9;

    final int capacity;
    final byte[] kind;
    final int[] thread;
    final int[] cpu;
    final long[] clock;
    /** memType (access), size (fetch), branch kind, call index, object index. */
    final int[] a;
    /** size (access). */
    final int[] b;
    /** address (access, fetch), source (branch). */
    final long[] x;
    /** target (branch). */
    final long[] y;
    int n;
    // Call records: CallEvent fields, indexed by a[i].
    final int[] callType;
    final long[] callStart;
    final long[] callEnd;
    final long[] callArgs;
    final long[] callWait;
    int calls;
    // Phase and times copies of phase and end records, indexed by a[i] (two slots each).
    Object[] objects = new Object[8];
    int nObjects;
    final AtomicInteger readers = new AtomicInteger();

    RecordBatch(int capacity) {
        this.capacity = capacity;
        kind = new byte[capacity];
        thread = new int[capacity];
        cpu = new int[capacity];
        clock = new long[capacity];
        a = new int[capacity];
        b = new int[capacity];
        x = new long[capacity];
        y = new long[capacity];
        int nc = Math.max(4, capacity / 16);
        callType = new int[nc];
        callStart = new long[nc];
        callEnd = new long[nc];
        callArgs = new long[4 * nc];
        callWait = new long[nc];
    }

    /** True when no further record (of any kind) fits. */
    boolean full() {
        return n == capacity || calls == callType.length;
    }

    void clear() {
        n = 0;
        calls = 0;
        java.util.Arrays.fill(objects, 0, nObjects, null);
        nObjects = 0;
    }

    void access(int t, int c, long clk, int memType, int size, boolean store, long address, boolean sync) {
        int i = n++;
        kind[i] = sync ? (store ? SYNC_STORE : SYNC_LOAD) : (store ? STORE : LOAD);
        thread[i] = t;
        cpu[i] = c;
        clock[i] = clk;
        a[i] = memType;
        b[i] = size;
        x[i] = address;
    }

    void fetch(int t, int c, long clk, long address, int size) {
        int i = n++;
        kind[i] = FETCH;
        thread[i] = t;
        cpu[i] = c;
        clock[i] = clk;
        a[i] = size;
        x[i] = address;
    }

    void branch(int t, int c, long clk, int k, long source, long target) {
        int i = n++;
        kind[i] = BRANCH;
        thread[i] = t;
        cpu[i] = c;
        clock[i] = clk;
        a[i] = k;
        x[i] = source;
        y[i] = target;
    }

    void call(int t, int c, long clk, CallEvent e) {
        int i = n++;
        int k = calls++;
        kind[i] = CALL;
        thread[i] = t;
        cpu[i] = c;
        clock[i] = clk;
        a[i] = k;
        callType[k] = e.type;
        callStart[k] = e.startTime;
        callEnd[k] = e.endTime;
        callArgs[4 * k] = e.arg1;
        callArgs[4 * k + 1] = e.arg2;
        callArgs[4 * k + 2] = e.arg3;
        callArgs[4 * k + 3] = e.arg4;
        callWait[k] = e.waitClocks;
    }

    /** Copies call {@code k} into {@code e}. */
    void callEvent(int k, CallEvent e) {
        e.type = callType[k];
        e.startTime = callStart[k];
        e.endTime = callEnd[k];
        e.arg1 = callArgs[4 * k];
        e.arg2 = callArgs[4 * k + 1];
        e.arg3 = callArgs[4 * k + 2];
        e.arg4 = callArgs[4 * k + 3];
        e.waitClocks = callWait[k];
    }

    /** A phase, end-of-phase or end record with its (copied) phase and times. */
    void control(byte k, Phase phase, PhaseTimes times) {
        int i = n++;
        kind[i] = k;
        if (nObjects + 2 > objects.length) {
            objects = java.util.Arrays.copyOf(objects, objects.length * 2);
        }
        a[i] = nObjects;
        objects[nObjects++] = phase;
        objects[nObjects++] = times;
    }
}
