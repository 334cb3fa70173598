package org.dsmscope.bench.ciat;

import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.trace.TraceSet;

/**
 * Drives CIAT (or any analysis: CDAT) directly with an {@link AccessStream}: one parallel phase, thread i on
 * processor i.
 */
public final class StreamDriver implements ReplayContext {
    private final AccessStream s;
    private final long[] clocks;

    /** A driver for {@code s}. */
    public StreamDriver(AccessStream s) {
        this.s = s;
        this.clocks = new long[s.threads];
    }

    /** Runs the whole stream through a new CIAT with {@code opt} (files off) and returns it. */
    public Ciat run(CiatOptions opt) {
        opt.writeFiles = false;
        Ciat c = new Ciat(opt);
        run(c);
        return c;
    }

    /** Runs the whole stream through analysis {@code c} (begin to end), one parallel phase. */
    public void run(Analysis c) {
        java.util.Arrays.fill(clocks, 0);
        c.begin(this);
        Phase p = new Phase(1, Phase.Kind.PARALLEL, 0, -1);
        c.phaseBegin(p);
        byte[] th = s.thread;
        long[] ad = s.address;
        byte[] sz = s.size;
        short[] ty = s.type;
        for (int i = 0, n = s.length; i < n; i++) {
            int t = th[i];
            int type = ty[i];
            c.access(t, t, ++clocks[t], type, sz[i], (type & 0xF) == 1, ad[i]);
        }
        PhaseTimes times = new PhaseTimes(s.threads);
        for (int t = 0; t < s.threads; t++) {
            times.busy[t] = clocks[t];
        }
        p.end(clocks[0]);
        c.phaseEnd(p, times);
        c.end(this, times);
    }

    /** Convenience: the results of a run with default options. */
    public CiatResult result() {
        return run(new CiatOptions()).result();
    }

    @Override
    public int threads() {
        return s.threads;
    }

    @Override
    public int processors() {
        return s.threads;
    }

    @Override
    public TraceSet traces() {
        return null;
    }

    @Override
    public boolean isSyncVariable(long address) {
        return false;
    }

    @Override
    public long clock(int thread) {
        return clocks[thread];
    }
}
