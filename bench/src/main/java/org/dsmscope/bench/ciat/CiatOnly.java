package org.dsmscope.bench.ciat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;

/**
 * CPU time of CIAT alone (issue 4's speed requirement without the replay): replays a trace set once into memory
 * (every callback in primitive arrays, with its synchronization-variable flag), then feeds the captured callbacks
 * {@code reps} times to a new {@link Ciat} (no output files) and prints each run's thread CPU time, the
 * accesses per CPU second and the bytes the run allocated per access (state pages and tables; nothing is
 * allocated per record). Usage: {@code java -cp bench/target/benchmarks.jar
 * org.dsmscope.bench.ciat.CiatOnly TRACE_PREFIX REPS [thread|global] [GRANULARITY]}.
 */
public final class CiatOnly implements Analysis, ReplayContext {
    private static final byte ACCESS = 0;
    private static final byte CALL = 1;
    private static final byte PHASE_BEGIN = 2;
    private static final byte PHASE_END = 3;
    private static final byte FETCH = 4;
    private static final byte BRANCH = 5;

    private ReplayContext replay;
    private int n;
    private byte[] kind = new byte[1 << 20];
    private int[] thread = new int[1 << 20];
    private int[] cpu = new int[1 << 20];
    private long[] clock = new long[1 << 20];
    private int[] a = new int[1 << 20];
    private int[] b = new int[1 << 20];
    private long[] x = new long[1 << 20];
    private final List<Object> objects = new ArrayList<>();
    private PhaseTimes total;
    private int threads;
    private int processors;
    private boolean sync;
    private long accesses;

    private CiatOnly() {
    }

    /** Appends a record of kind {@code k} by thread {@code t} on processor {@code p} at {@code clk}; its index. */
    private int add(byte k, int t, int p, long clk) {
        if (n == kind.length) {
            int c = n * 2;
            kind = Arrays.copyOf(kind, c);
            thread = Arrays.copyOf(thread, c);
            cpu = Arrays.copyOf(cpu, c);
            clock = Arrays.copyOf(clock, c);
            a = Arrays.copyOf(a, c);
            b = Arrays.copyOf(b, c);
            x = Arrays.copyOf(x, c);
        }
        int i = n++;
        kind[i] = k;
        thread[i] = t;
        cpu[i] = p;
        clock[i] = clk;
        return i;
    }

    @Override
    public void begin(ReplayContext c) {
        replay = c;
        threads = c.threads();
        processors = c.processors();
    }

    @Override
    public void phaseBegin(Phase phase) {
        int i = add(PHASE_BEGIN, 0, 0, 0);
        a[i] = objects.size();
        objects.add(new Phase(phase.id(), phase.kind(), phase.startClock(), phase.markerNum()));
    }

    @Override
    public void access(int t, int c, long clk, int memType, int size, boolean store, long address) {
        int i = add(ACCESS, t, c, clk);
        a[i] = memType | (store ? 1 << 16 : 0) | (size > 0 && replay.isSyncVariable(address) ? 1 << 17 : 0);
        b[i] = size;
        x[i] = address;
        accesses++;
    }

    @Override
    public void fetch(int t, int c, long clk, long address, int size) {
        int i = add(FETCH, t, c, clk);
        b[i] = size;
        x[i] = address;
    }

    @Override
    public void branch(int t, int c, long clk, int k, long source, long target) {
        int i = add(BRANCH, t, c, clk);
        a[i] = k;
        x[i] = source;
        objects.add(target);
        b[i] = objects.size() - 1;
    }

    @Override
    public void call(int t, int c, long clk, CallEvent e) {
        int i = add(CALL, t, c, clk);
        CallEvent copy = new CallEvent();
        copy.type = e.type;
        copy.startTime = e.startTime;
        copy.endTime = e.endTime;
        copy.arg1 = e.arg1;
        copy.arg2 = e.arg2;
        copy.arg3 = e.arg3;
        copy.arg4 = e.arg4;
        copy.waitClocks = e.waitClocks;
        a[i] = objects.size();
        objects.add(copy);
    }

    @Override
    public void phaseEnd(Phase phase, PhaseTimes times) {
        int i = add(PHASE_END, 0, 0, 0);
        a[i] = objects.size();
        Phase copy = new Phase(phase.id(), phase.kind(), phase.startClock(), phase.markerNum());
        copy.end(phase.endClock());
        objects.add(copy);
        objects.add(copyOf(times));
    }

    @Override
    public void end(ReplayContext c, PhaseTimes t) {
        total = copyOf(t);
    }

    private static PhaseTimes copyOf(PhaseTimes t) {
        if (t == null) {
            return null;
        }
        PhaseTimes c = new PhaseTimes(t.threads());
        c.add(t);
        return c;
    }

    /** Feeds every captured callback to {@code c}. */
    private void feed(Ciat c) {
        c.begin(this);
        for (int i = 0; i < n; i++) {
            switch (kind[i]) {
                case ACCESS:
                    sync = (a[i] & (1 << 17)) != 0;
                    c.access(thread[i], cpu[i], clock[i], a[i] & 0xFFFF, b[i], (a[i] & (1 << 16)) != 0, x[i]);
                    break;
                case FETCH: c.fetch(thread[i], cpu[i], clock[i], x[i], b[i]); break;
                case BRANCH: c.branch(thread[i], cpu[i], clock[i], a[i], x[i], (Long) objects.get(b[i])); break;
                case CALL: c.call(thread[i], cpu[i], clock[i], (CallEvent) objects.get(a[i])); break;
                case PHASE_BEGIN: c.phaseBegin((Phase) objects.get(a[i])); break;
                case PHASE_END:
                    c.phaseEnd((Phase) objects.get(a[i]), (PhaseTimes) objects.get(a[i] + 1));
                    break;
                default: throw new IllegalStateException("kind " + kind[i]);
            }
        }
        c.end(this, total);
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
        return null;
    }

    @Override
    public boolean isSyncVariable(long address) {
        return sync;
    }

    @Override
    public long clock(int t) {
        throw new UnsupportedOperationException("captured run: no live clocks");
    }

    /** Entry point: {@code TRACE_PREFIX REPS [thread|global] [GRANULARITY]}. */
    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: CiatOnly TRACE_PREFIX REPS [thread|global] [GRANULARITY]");
            System.exit(2);
        }
        CiatOnly cap = new CiatOnly();
        new Replay(TraceSet.ofPrefix(args[0]), null, new ReplayOptions()).add(cap).run();
        int reps = Integer.parseInt(args[1]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean amx = (com.sun.management.ThreadMXBean) mx;
        for (int r = 0; r < reps; r++) {
            CiatOptions co = new CiatOptions();
            co.writeFiles = false;
            if (args.length > 2) {
                co.ageScope = AccessAge.Scope.valueOf(args[2].toUpperCase(java.util.Locale.ROOT));
            }
            if (args.length > 3) {
                co.ageGranularity = Integer.parseInt(args[3]);
            }
            Ciat c = new Ciat(co);
            long a0 = amx.getCurrentThreadAllocatedBytes();
            long c0 = mx.getCurrentThreadCpuTime();
            cap.feed(c);
            double cpu = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
            long alloc = amx.getCurrentThreadAllocatedBytes() - a0;
            System.out.printf("ciat-only %s run %d: %d accesses, cpu %.3f s: %.2f M accesses/s of CPU time,"
                    + " allocated %.1f B/access%n", args[0], r, cap.accesses, cpu, cap.accesses / cpu / 1e6,
                    (double) alloc / cap.accesses);
        }
    }
}
