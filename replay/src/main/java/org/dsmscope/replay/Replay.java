package org.dsmscope.replay;

import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceSet;

/**
 * The replay engine (seed 000 §3, seed 001 §3 and §5.3, SPEC §4): streams a trace set, interleaves its traces by
 * pseudo clock and feeds every record to the plugged-in {@link Analysis analyses}. Thread traces replay with
 * phases and synchronization ({@code ThreadEngine}); with {@code -i p} the traces are processes whose slices the
 * {@link SliceScheduler} places on p processors ({@code SliceEngine}).
 *
 * <p>Before the replay a {@code Prescan} pass streams every trace once to learn the synchronization variables,
 * the run's first call time and the call-trace match (and, for {@code -i}, the slices). Bad traces, deadlocks and
 * inconsistent call traces throw {@link BadInputException}; with {@link ReplayOptions#skipBadRecords} the replay
 * continues past them, {@link #problems()} lists what it passed, and analyses get results for what could be
 * replayed. Not thread-safe: one replay runs on one thread.
 */
public final class Replay implements ReplayContext {
    private final TraceSet detailed;
    private final TraceSet calls;
    private final ReplayOptions o;
    private final List<Analysis> analyses = new ArrayList<>();
    private final Problems problems = new Problems();
    private Prescan pre;
    private ThreadEngine threads;
    private SliceEngine slices;
    private long replayed;

    /** A replay of {@code detailed}, with call times from {@code callsOrNull} when given. */
    public Replay(TraceSet detailed, TraceSet callsOrNull, ReplayOptions o) {
        o.validate();
        if (callsOrNull != null && callsOrNull.size() != detailed.size()) {
            throw new BadInputException("the call traces " + callsOrNull.base() + " have " + callsOrNull.size()
                    + " files but the detailed traces " + detailed.base() + " have " + detailed.size()
                    + ": they must come from runs with the same number of threads");
        }
        this.detailed = detailed;
        this.calls = callsOrNull;
        this.o = o;
    }

    /** Plugs in an analysis (before {@link #run()}); returns this replay. */
    public Replay add(Analysis a) {
        analyses.add(a);
        return this;
    }

    /** Replays the traces once, feeding every analysis. Throws {@link BadInputException} on bad input. */
    public void run() {
        int n = detailed.size();
        pre = new Prescan(n, o, problems);
        boolean interleaved = o.interleave > 0;
        pre.run(detailed, calls, interleaved);
        Analysis[] an = analyses.toArray(new Analysis[0]);
        TraceReader[] rd = new TraceReader[n];
        TraceReader[] crd = calls == null ? null : new TraceReader[n];
        try {
            for (int t = 0; t < n; t++) {
                rd[t] = Prescan.open(detailed.files().get(t), o, Prescan.REPLAY_BUFFER);
                if (crd != null && pre.usableCalls[t] > 0) {
                    crd[t] = Prescan.open(calls.files().get(t), o);
                }
            }
            CallTimes times = new CallTimes(crd, pre.usableCalls, pre.t0, n);
            for (Analysis a : an) {
                a.begin(this);
            }
            PhaseTimes total;
            if (interleaved) {
                slices = new SliceEngine(this, an, rd, times, pre);
                slices.run();
                total = slices.total;
                replayed = slices.replayed;
            } else {
                threads = new ThreadEngine(this, an, rd, times, pre.hasFetch);
                threads.run();
                total = threads.total;
                replayed = threads.replayed;
            }
            for (Analysis a : an) {
                a.end(this, total);
            }
        } finally {
            for (TraceReader r : rd) {
                Prescan.close(r);
            }
            if (crd != null) {
                for (TraceReader r : crd) {
                    Prescan.close(r);
                }
            }
        }
    }

    /** Problems the replay continued past (only with {@link ReplayOptions#skipBadRecords}); at most 1000 kept. */
    public List<String> problems() {
        return problems.list();
    }

    /** Number of problems continued past. */
    public long problemCount() {
        return problems.count();
    }

    /** The slice schedule used with {@code -i p}, after {@link #run()}; null for thread traces. */
    public SliceScheduler.Schedule schedule() {
        return slices == null ? null : slices.schedule();
    }

    /** Records replayed (a call record counts once), after {@link #run()}. */
    public long records() {
        return replayed;
    }

    ReplayOptions options() {
        return o;
    }

    /** A user's mistake in the traces: throws, or with skipping on records it and continues. */
    void bad(String msg) {
        if (!o.skipBadRecords) {
            throw new BadInputException(msg);
        }
        problems.add(msg);
    }

    /** A problem that is always continued past (e.g. records after a thread_end), recorded. */
    void problem(String msg) {
        bad(msg);
    }

    // ---------------------------------------------------------------- ReplayContext

    @Override
    public int threads() {
        return detailed.size();
    }

    @Override
    public int processors() {
        return o.interleave > 0 ? o.interleave : detailed.size();
    }

    @Override
    public TraceSet traces() {
        return detailed;
    }

    @Override
    public boolean isSyncVariable(long address) {
        return pre != null && pre.syncVars.get(address) >= 0;
    }

    @Override
    public long clock(int thread) {
        if (threads != null) {
            return threads.clock[thread];
        }
        return slices == null ? 0 : slices.traceClock[thread];
    }
}
