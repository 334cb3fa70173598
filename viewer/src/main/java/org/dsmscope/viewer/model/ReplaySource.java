package org.dsmscope.viewer.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.LongIntMap;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.sidecar.DataMap;

/**
 * A replayed trace set as a timeline (SPEC §9: "the same space-time view also shows a replayed trace set"), a
 * plug-in of the replay engine: one lane per thread (per process with {@code -i}) whose states are the replay's
 * waits ({@link Analysis#waited}: idle, imbalance, contention, io; busy between them, seed 001 §5.3), the call
 * records as ticks, phases as a band, and arrows for every lock hand-off (a critical section entered after a wait,
 * from the release of the same lock by another thread just before, as the Chrome export draws them) and every
 * barrier release (from the thread that arrived last to each thread that waited there for it: the calls on one
 * barrier address that return at the same clock). Times are pseudo clocks. Per-thread totals are the replay's
 * {@link PhaseTimes} (io split off idle), so the bars and the CIAT report agree. With communication marks, CIAT's
 * RAW / WAR / WAW / RAR events (seed 000 §4.4, the {@code -ciat_events} trace) are ticks on the accessing thread,
 * each kind its own level of the page's filter, with the address, its data-map name and the writer thread.
 */
public final class ReplaySource implements Analysis, Source {
    /** State names: busy (default), idle, imbalance, contention, io. */
    public static final String[] STATES = {"busy", "idle", "imbalance", "contention", "io"};

    private final Timeline tl;
    private long[] lastClock = new long[0];
    private long[] ioWait = new long[0];
    private final Map<Long, long[]> lastRelease = new HashMap<>();
    private final Map<String, List<long[]>> barriers = new LinkedHashMap<>();
    private PhaseTimes total;
    private int threads;

    /** Kind code of CIAT's RAW communication event; WAR, WAW and RAR follow (codes after the call types). */
    public static final int COMM = 0x70;
    /** Names of the communication events, by CIAT's type number (0 RAW, 1 WAR, 2 WAW, 3 RAR). */
    public static final String[] COMM_NAMES = {"RAW", "WAR", "WAW", "RAR"};

    /** With communication marks: per address, the thread of the last store that started there. */
    private LongIntMap lastWriter;
    private DataMap dataMap;

    /** An empty replay view titled {@code title}; add it to a {@code Replay} and run it. */
    public ReplaySource(String title) {
        this(title, false);
    }

    /**
     * An empty replay view; with {@code commMarks} it also marks CIAT's communication events ({@link #commEvent},
     * fed by a CIAT analysis added to the same replay before this view).
     */
    public ReplaySource(String title, boolean commMarks) {
        this.tl = new Timeline(title, "replay", "clock", STATES, kinds(commMarks));
        lastWriter = commMarks ? new LongIntMap(1 << 12) : null;
    }

    private static Timeline.Kind[] kinds(boolean comm) {
        Timeline.Kind[] k = new Timeline.Kind[128];
        if (comm) {
            for (int i = 0; i < COMM_NAMES.length; i++) {
                // each its own level, so that the page's level filter shows and hides them one by one
                k[COMM + i] = new Timeline.Kind(COMM_NAMES[i], COMM_NAMES[i],
                        new String[] {"address", "size", "processor", "degree", "writer"}, Timeline.Draw.TICK);
            }
        }
        for (int code = 0; code < 128; code++) {
            if (!CallType.isKnown(code)) {
                continue;
            }
            String name = CallType.name(code);
            String[] f;
            if (code == CallType.BARRIER) {
                f = new String[] {"address", "parties", "-", "wait", "-"};
            } else if (code == CallType.BEGIN_CRITICAL || code == CallType.END_CRITICAL) {
                f = new String[] {"lock", "shared", "-", "wait", "-"};
            } else {
                f = new String[] {"arg1", "arg2", "arg3", "wait", "-"};
            }
            k[code] = new Timeline.Kind(name, "replay", f, Timeline.Draw.TICK);
        }
        return k;
    }

    @Override
    public void begin(ReplayContext c) {
        threads = c.threads();
        lastClock = new long[threads];
        ioWait = new long[threads];
        if (lastWriter != null) {
            try {
                Path f = DataMap.pathFor(c.traces().base());
                dataMap = Files.isRegularFile(f) ? DataMap.read(f) : null;
            } catch (IOException | RuntimeException e) {
                tl.notes.add("data map not read: " + e.getMessage());
            }
        }
        String kind = c.interleaved() ? "process " : "thread ";
        for (int t = 0; t < threads; t++) {
            tl.addLane(kind + t);
            tl.touch(t, 0);
        }
    }

    @Override
    public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
        if (clock > lastClock[thread]) {
            lastClock[thread] = clock;
        }
        if (lastWriter != null && store && size > 0) {
            lastWriter.put(address, thread);
        }
    }

    /**
     * One of CIAT's communication events (seed 000 §4.4: {@code type} 0 RAW, 1 WAR, 2 WAW, 3 RAR) caused by
     * {@code thread}'s access of {@code size} bytes at {@code address} on {@code processor}, marked on the thread
     * at {@code clock} with the writer: for RAW the thread whose store last started at that address (the one read
     * from), for WAR and WAW the previous writer there, -1 for RAR or where no store started at that address.
     */
    public void commEvent(long clock, int type, int processor, int degree, int thread, long address, int size) {
        int writer = type == 3 ? -1 : lastWriter.get(address);
        tl.event(clock, 0, thread, COMM + type, -1, address, size, processor, degree, writer);
    }

    /** What the data map beside the trace set says of a communication event's address, or null. */
    @Override
    public String describe(int id) {
        synchronized (tl) {
            int k = tl.kindOf(id);
            return dataMap == null || k < COMM || k >= COMM + COMM_NAMES.length ? null
                    : dataMap.describe(tl.field(id, 0));
        }
    }

    @Override
    public void fetch(int thread, int cpu, long clock, long address, int size) {
        if (clock > lastClock[thread]) {
            lastClock[thread] = clock;
        }
    }

    @Override
    public void fetchRun(int thread, int cpu, long clock, long address, int count) {
        if (clock + count - 1 > lastClock[thread]) {
            lastClock[thread] = clock + count - 1;
        }
    }

    @Override
    public void waited(int thread, int cpu, long from, long to, int reason) {
        tl.state(thread, from, to, 1 + reason);
        if (reason == WAIT_IO) {
            ioWait[thread] += to - from;
        }
    }

    @Override
    public void call(int thread, int cpu, long clock, CallEvent call) {
        if (clock > lastClock[thread]) {
            lastClock[thread] = clock;
        }
        if (call.type >= 0 && call.type < 128 && tl.kinds[call.type] != null) {
            int id = tl.event(clock, 0, thread, call.type, -1, call.arg1, call.arg2, call.arg3, call.waitClocks, 0);
            if (call.type == CallType.END_CRITICAL) {
                lastRelease.put(call.arg1, new long[] {thread, clock, id});
            } else if (call.type == CallType.BEGIN_CRITICAL && call.waitClocks > 0) {
                long[] r = lastRelease.get(call.arg1);
                if (r != null && r[0] != thread && r[1] <= clock) {
                    tl.arrow(Timeline.LOCK, (int) r[0], r[1], thread, clock, call.arg1, -1, (int) r[2], id);
                }
            } else if (call.type == CallType.BARRIER) {
                barriers.computeIfAbsent(call.arg1 + "@" + clock, x -> new ArrayList<>())
                        .add(new long[] {thread, clock, call.waitClocks, id, call.arg1});
            }
        }
    }

    @Override
    public void phaseEnd(Phase phase, PhaseTimes times) {
        long from = Math.max(0, phase.startClock());
        if (phase.endClock() > from) {
            tl.phase(from, phase.endClock(), "phase " + phase.id() + " " + phase.kind().label());
        }
    }

    @Override
    public void end(ReplayContext c, PhaseTimes t) {
        total = t;
        for (int th = 0; th < threads; th++) {
            tl.touch(th, Math.max(lastClock[th] + 1, c.clock(th)));
        }
        finish();
    }

    /** Draws the barrier releases and sets the per-thread totals; also after a replay that failed part way. */
    public void finish() {
        for (List<long[]> episode : barriers.values()) {
            long[] last = null;
            for (long[] b : episode) {
                if (b[2] == 0 && last == null) {
                    last = b;
                }
            }
            if (last == null) {
                continue;
            }
            for (long[] b : episode) {
                if (b != last && b[2] > 0) {
                    tl.arrow(Timeline.BARRIER, (int) last[0], last[1], (int) b[0], b[1], b[4], -1, (int) last[3],
                            (int) b[3]);
                }
            }
        }
        barriers.clear();
        if (total != null) {
            for (int th = 0; th < threads; th++) {
                tl.lane(th).totals = new long[] {total.busy[th], total.idle[th] - ioWait[th], total.imbalance[th],
                    total.contention[th], ioWait[th]};
            }
        }
        tl.seal();
    }

    /** The replay's total times (after the replay ended), or null. */
    public PhaseTimes total() {
        return total;
    }

    @Override
    public Timeline timeline() {
        return tl;
    }

    @Override
    public Map<String, Object> tables(long t0, long t1) {
        return new LinkedHashMap<>();
    }
}
