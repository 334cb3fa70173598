package org.dsmscope.ciat;

import java.util.HashSet;
import java.util.Set;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;

/** A tiny stand-in for the replay engine: calls an analysis the way the engine does, one record at a time. */
public final class FakeReplay implements ReplayContext {
    private final int threads;
    private final int processors;
    private final long[] clocks;
    private final Set<Long> sync = new HashSet<>();
    private final Ciat ciat;
    private int phaseId;
    private Phase phase;
    private final PhaseTimes total;
    private TraceSet traces;

    /** A driver of {@code threads} threads on as many processors, CIAT with {@code opt} (files off). */
    public FakeReplay(int threads, CiatOptions opt) {
        this(threads, threads, opt);
    }

    /** A driver with distinct thread and processor counts. */
    public FakeReplay(int threads, int processors, CiatOptions opt) {
        this.threads = threads;
        this.processors = processors;
        this.clocks = new long[threads];
        this.total = new PhaseTimes(threads);
        this.ciat = new Ciat(opt);
    }

    /** Default options, no files. */
    public static FakeReplay of(int threads) {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        return new FakeReplay(threads, o);
    }

    /** Sets the trace set (for output file names). */
    public FakeReplay traces(TraceSet t) {
        this.traces = t;
        return this;
    }

    /** Declares a synchronization variable. */
    public FakeReplay syncVariable(long address) {
        sync.add(address);
        return this;
    }

    /** Starts the replay (begin + first phase). */
    public FakeReplay start(Phase.Kind kind) {
        ciat.begin(this);
        phase(kind);
        return this;
    }

    /** Ends the current phase and starts another. */
    public FakeReplay phase(Phase.Kind kind) {
        if (phase != null) {
            endPhase(null);
        }
        phase = new Phase(++phaseId, kind, max(), -1);
        ciat.phaseBegin(phase);
        return this;
    }

    /** Ends the current phase with the given times (null = busy only). */
    public FakeReplay endPhase(PhaseTimes times) {
        PhaseTimes t = times;
        if (t == null) {
            t = new PhaseTimes(threads);
        }
        phase.end(max());
        ciat.phaseEnd(phase, t);
        total.add(t);
        phase = null;
        return this;
    }

    private long max() {
        long m = 0;
        for (long c : clocks) {
            m = Math.max(m, c);
        }
        return m;
    }

    /** A fixed-point load of {@code size} bytes by thread t (on processor t mod processors). */
    public FakeReplay load(int t, long address, int size) {
        return access(t, MemType.encode(MemType.LOAD, size, MemType.FIXED), size, false, address);
    }

    /** A fixed-point store. */
    public FakeReplay store(int t, long address, int size) {
        return access(t, MemType.encode(MemType.STORE, size, MemType.FIXED), size, true, address);
    }

    /** Any access. */
    public FakeReplay access(int t, int memType, int size, boolean store, long address) {
        ciat.access(t, t % processors, ++clocks[t], memType, size, store, address);
        return this;
    }

    /** An instruction fetch. */
    public FakeReplay fetch(int t, long address, int size) {
        ciat.fetch(t, t % processors, ++clocks[t], address, size);
        return this;
    }

    /** A branch record. */
    public FakeReplay branch(int t, int kind, long source, long target) {
        ciat.branch(t, t % processors, clocks[t], kind, source, target);
        return this;
    }

    /** A call record. */
    public FakeReplay call(int t, int type, long start, long end, long arg1, long arg2) {
        CallEvent e = new CallEvent();
        e.type = type;
        e.startTime = start;
        e.endTime = end;
        e.arg1 = arg1;
        e.arg2 = arg2;
        ciat.call(t, t % processors, clocks[t], e);
        return this;
    }

    /** Ends the replay and returns CIAT's results. */
    public CiatResult finish() {
        if (phase != null) {
            endPhase(null);
        }
        ciat.end(this, total);
        return ciat.result();
    }

    /** The analysis. */
    public Ciat ciat() {
        return ciat;
    }

    @Override
    public int threads() {
        return threads;
    }

    @Override
    public int processors() {
        return processors;
    }

    @Override
    public TraceSet traces() {
        return traces;
    }

    @Override
    public boolean isSyncVariable(long address) {
        return sync.contains(address);
    }

    @Override
    public long clock(int thread) {
        return clocks[thread];
    }
}
