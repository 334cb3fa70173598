package org.dsmscope.replay;

import org.dsmscope.trace.CallType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * Replay of T process traces on p processors ({@code -i p}, seed 000 §3): runs the {@link SliceScheduler}'s
 * schedule. Each processor has one pseudo clock; the processor with the smallest clock goes first, ties
 * round-robin. A segment runs its trace's records until the trace has executed the segment's last instruction,
 * plus the call records that follow before the next instruction (a slice's tail call ends it); a processor idles
 * until a segment's scheduled start. Call records carry no synchronization here: the schedule already orders them.
 *
 * <p>Concurrency (one parallel phase, times per trace): busy = instructions executed; idle = before the trace's
 * first and after its last segment, and swapped out for disk I/O; contention = the rest (ready, or held back by
 * the synchronization order, but not running); imbalance = 0. Markers' stop and resume commands apply to the
 * trace that executes them (commands 3 and 4 act as 1 and 2). The times are the sums of the intervals the
 * analyses get as {@link Analysis#waited}: at a segment's start the gap since the trace's previous segment (swapped
 * out for the I/O that ended that segment, {@link SliceScheduler.Schedule#ioAfter}, then contention), or the idle
 * time before its first; at the end the time after its last.
 */
final class SliceEngine {
    private final Replay rp;
    private final Analysis[] an;
    private final TraceReader[] rd;
    private final CallTimes times;
    private final boolean[] fetchMode;
    private final SliceScheduler.Schedule sched;
    private final int p;
    private final int nt;
    private final CallEvent ev = new CallEvent();

    final long[] traceClock;
    final PhaseTimes total;
    long replayed;

    private final long[] laneClock;
    private final int[] seg;
    private final boolean[] inSeg;
    private final int[] laneWaits;
    private final int[] owner;
    private final long[] instr;
    private final boolean[] pending;
    private final boolean[] finished;
    private final boolean[] stopped;
    private final boolean[] pcValid;
    private final long[] pc;
    private final long[] first;
    private final long[] lastEnd;
    private final long[] busy;
    /** Per trace: idle (with I/O) and contention clocks booked so far, as the {@link Analysis#waited} intervals. */
    private final long[] idle;
    private final long[] contention;
    /** Per trace: swapped-out clocks after its last segment so far, and the processor that segment ran on. */
    private final long[] ioPending;
    private final int[] lastCpu;
    /**
     * Routed replay ({@link Replay#runRouted}): per trace, the data accesses of a {@link CallType#ROUTED_GAP}
     * record not run yet, and the gap's bytes while none of it has run (told with its first piece).
     */
    private final long[] gapLeft;
    private final long[] gapBytes;
    private int last = -1;
    /** Set by {@link #forceWaiting}: the next segment start skips the wait for its trace's first instruction. */
    private boolean forced;
    private final boolean handleIo;

    SliceEngine(Replay rp, Analysis[] an, TraceReader[] rd, CallTimes times, Prescan pre) {
        this.rp = rp;
        this.an = an;
        this.rd = rd;
        this.times = times;
        this.fetchMode = pre.hasFetch;
        this.nt = rd.length;
        this.p = rp.options().interleave;
        this.handleIo = rp.options().handleIo;
        this.sched = new SliceScheduler(pre.skeletons, rp.options()).schedule();
        traceClock = new long[nt];
        total = new PhaseTimes(nt);
        laneClock = new long[p];
        seg = new int[p];
        inSeg = new boolean[p];
        laneWaits = new int[p];
        owner = new int[nt];
        instr = new long[nt];
        pending = new boolean[nt];
        finished = new boolean[nt];
        stopped = new boolean[nt];
        pcValid = new boolean[nt];
        pc = new long[nt];
        first = new long[nt];
        lastEnd = new long[nt];
        busy = new long[nt];
        idle = new long[nt];
        contention = new long[nt];
        ioPending = new long[nt];
        lastCpu = new int[nt];
        gapLeft = new long[nt];
        gapBytes = new long[nt];
        java.util.Arrays.fill(owner, -1);
        java.util.Arrays.fill(first, -1);
        java.util.Arrays.fill(laneWaits, -1);
    }

    SliceScheduler.Schedule schedule() {
        return sched;
    }

    void run() {
        Phase phase = new Phase(1, nt > 1 ? Phase.Kind.PARALLEL : Phase.Kind.SERIAL, 0, -1);
        for (Analysis a : an) {
            a.phaseBegin(phase);
        }
        for (;;) {
            int c = pick();
            if (c < 0) {
                c = forceWaiting();
                if (c < 0) {
                    break;
                }
            }
            runLane(c);
        }
        long e = 0;
        for (int c = 0; c < p; c++) {
            e = Math.max(e, laneClock[c]);
        }
        for (int c = 0; c < p; c++) {
            laneIdle(c, laneClock[c], e);
        }
        for (int t = 0; t < nt; t++) {
            if (!finished[t] && (gapLeft[t] > 0 || rd[t].next() != RecordKind.EOF)) {
                rp.bad(rd[t].name() + ": byte offset " + rd[t].offset() + ": records beyond the scheduled slices");
            }
            // after its last segment: swapped out for an I/O that ended it, then idle
            long from = lastEnd[t];
            if (e > from) {
                long io = Math.min(ioPending[t], e - from);
                wait(t, lastCpu[t], from, from + io, Analysis.WAIT_IO);
                wait(t, lastCpu[t], from + io, e, Analysis.WAIT_IDLE);
            }
            total.busy[t] = busy[t];
            total.idle[t] = idle[t];
            total.contention[t] = contention[t];
        }
        phase.end(e);
        for (Analysis a : an) {
            a.phaseEnd(phase, total);
        }
    }

    /** The lane (processor) with work left and the smallest clock, ties round-robin. */
    private int pick() {
        int best = -1;
        long min = Long.MAX_VALUE;
        int c = last;
        for (int i = 0; i < p; i++) {
            if (++c == p) {
                c = 0;
            }
            if (laneWaits[c] < 0 && (inSeg[c] || seg[c] < sched.segments(c)) && laneClock[c] < min) {
                min = laneClock[c];
                best = c;
            }
        }
        return best;
    }

    /**
     * When every lane with work left waits for a trace (traces whose instructions do not add up to their
     * skeleton's: not seen in consistent input), lets the waiting lane with the smallest clock start its segment
     * as it stands; -1 if no lane waits.
     */
    private int forceWaiting() {
        int best = -1;
        for (int c = 0; c < p; c++) {
            if (laneWaits[c] >= 0 && owner[laneWaits[c]] < 0 && (best < 0 || laneClock[c] < laneClock[best])) {
                best = c;
            }
        }
        if (best >= 0) {
            laneWaits[best] = -1;
            forced = true;
        }
        return best;
    }

    private void runLane(int c) {
        last = c;
        if (!inSeg[c]) {
            int k = seg[c];
            int t = sched.trace(c, k);
            // a segment starts once its trace left the previous one and reached the segment's first instruction:
            // a lane whose segment is due later must not take the trace before a segment due earlier elsewhere
            if (owner[t] >= 0 || !forced && !finished[t] && instr[t] < sched.from(c, k)) {
                laneWaits[c] = t;
                return;
            }
            forced = false;
            owner[t] = c;
            inSeg[c] = true;
            long s = sched.start(c, k);
            if (laneClock[c] < s) {
                laneIdle(c, laneClock[c], s);
                laneClock[c] = s;
            }
            long at = laneClock[c];
            if (first[t] < 0) {
                first[t] = at;
                wait(t, c, 0, at, Analysis.WAIT_IDLE);
            } else if (at > lastEnd[t]) {
                // the gap since its previous segment: swapped out for that segment's I/O, then ready or held back
                long from = lastEnd[t];
                long io = Math.min(ioPending[t], at - from);
                wait(t, c, from, from + io, Analysis.WAIT_IO);
                wait(t, c, from + io, at, Analysis.WAIT_CONTENTION);
            }
            ioPending[t] = 0;
        }
        int t = sched.trace(c, seg[c]);
        long to = sched.to(c, seg[c]);
        if (!record(c, t, to)) {
            inSeg[c] = false;
            seg[c]++;
            owner[t] = -1;
            lastEnd[t] = laneClock[c];
            ioPending[t] = sched.ioAfter(c, seg[c] - 1);
            lastCpu[t] = c;
            traceClock[t] = laneClock[c];
            for (int d = 0; d < p; d++) {
                if (laneWaits[d] == t) {
                    laneWaits[d] = -1;
                    long at = Math.max(laneClock[d], laneClock[c]);
                    laneIdle(d, laneClock[d], at);
                    laneClock[d] = at;
                }
            }
        }
    }

    /** Processor c runs nothing from {@code from} to {@code to} ({@link Analysis#processorIdle}; nothing if empty). */
    private void laneIdle(int c, long from, long to) {
        if (to <= from) {
            return;
        }
        for (Analysis a : an) {
            a.processorIdle(c, from, to);
        }
    }

    /**
     * Books the wait of trace t from {@code from} to {@code to} (nothing if empty) and tells every analysis
     * ({@link Analysis#waited}, {@code cpu} = processor c). At most two per segment: not on the per-record path.
     */
    private void wait(int t, int c, long from, long to, int reason) {
        if (to <= from) {
            return;
        }
        if (reason == Analysis.WAIT_CONTENTION) {
            contention[t] += to - from;
        } else {
            idle[t] += to - from;
        }
        for (Analysis a : an) {
            a.waited(t, c, from, to, reason);
        }
    }

    /** Processes one record of trace t on lane c; false when the segment is over (record left pending). */
    private boolean record(int c, int t, long to) {
        if (finished[t]) {
            return false;
        }
        if (gapLeft[t] > 0) {
            return gap(c, t, to);
        }
        TraceReader r = rd[t];
        int k = pending[t] ? r.kind() : r.next();
        boolean instrBearing = instructions(t, k, r) > 0;
        if (instrBearing && instr[t] >= to) {
            pending[t] = true;
            return false;
        }
        pending[t] = false;
        if (k == RecordKind.EOF) {
            finished[t] = true;
            return false;
        }
        replayed++;
        long clk = laneClock[c];
        switch (k) {
            case RecordKind.MEMORY:
                if (!stopped[t]) {
                    if (!fetchMode[t]) {
                        if (pcValid[t]) {
                            for (Analysis a : an) {
                                a.fetch(t, c, clk, pc[t], InstructionStream.WORD);
                            }
                            pc[t] += InstructionStream.WORD;
                        }
                        tick(c, t, 1);
                    }
                    for (Analysis a : an) {
                        a.access(t, c, fetchMode[t] ? clk - 1 : clk, r.memType(), r.size(), r.isStore(),
                                r.address());
                    }
                }
                break;
            case RecordKind.FETCH:
                if (!stopped[t]) {
                    for (Analysis a : an) {
                        a.fetch(t, c, clk, r.address(), r.size());
                    }
                    tick(c, t, 1);
                }
                break;
            case RecordKind.CALL:
                if (r.callType() == CallType.ROUTED_GAP) {
                    replayed--;
                    gapLeft[t] = r.arg(1);
                    gapBytes[t] = r.arg(2) | r.arg(3) << 32;
                    return gapLeft[t] > 0 ? gap(c, t, to) : record(c, t, to);
                }
                call(c, t, r);
                break;
            default:
                branch(c, t, k, r);
                break;
        }
        return true;
    }

    /**
     * Runs accesses of trace t's routed gap on lane c as the serial run runs the records it stands for, each
     * {@link #record} step of that run at once: false, leaving the gap, if the segment's instructions are done (the
     * serial run stops at the next memory record); else a stopped trace's next record (no clock: one per step, as
     * the serial run reads them, since the other lanes at this clock go between them), or accesses from this clock
     * up to the smallest clock of the other lanes that can run (at least one: the serial run picks lane c for each
     * while its clock is below theirs) and up to the segment's last instruction; tells the analyses
     * ({@link Analysis#skipped}).
     */
    private boolean gap(int c, int t, long to) {
        if (stopped[t]) {
            gapLeft[t]--;
            gapBytes[t] = 0;
            replayed++;
            return true;
        }
        if (instr[t] >= to) {
            return false;
        }
        long clk = laneClock[c];
        long others = Long.MAX_VALUE;
        for (int d = 0; d < p; d++) {
            if (d != c && laneWaits[d] < 0 && (inSeg[d] || seg[d] < sched.segments(d))) {
                others = Math.min(others, laneClock[d]);
            }
        }
        long take = Math.min(Math.min(gapLeft[t], to - instr[t]), Math.max(1, others - clk));
        take = Math.min(take, Integer.MAX_VALUE);
        long bytes = gapBytes[t];
        gapBytes[t] = 0;
        for (Analysis a : an) {
            a.skipped(t, clk, (int) take, bytes);
        }
        gapLeft[t] -= take;
        replayed += take;
        tick(c, t, take);
        return true;
    }

    /** Instructions a record would add to trace t's count (0 for calls and procedure starts). */
    private long instructions(int t, int k, TraceReader r) {
        if (stopped[t] || k == RecordKind.EOF || k == RecordKind.CALL || k == RecordKind.PROC_START) {
            return 0;
        }
        if (k == RecordKind.FETCH) {
            return 1;
        }
        if (fetchMode[t]) {
            return 0;
        }
        if (k == RecordKind.MEMORY) {
            return 1;
        }
        return InstructionStream.gap(pcValid[t], pc[t], r.source());
    }

    private void tick(int c, int t, long n) {
        laneClock[c] += n;
        instr[t] += n;
        busy[t] += n;
    }

    private void branch(int c, int t, int k, TraceReader r) {
        if (stopped[t]) {
            return;
        }
        long source = r.source();
        long target = r.target();
        if (!fetchMode[t]) {
            if (k != RecordKind.PROC_START) {
                long gap = InstructionStream.gap(pcValid[t], pc[t], source);
                long p0 = pc[t];
                for (long i = 0; i < gap; i++) {
                    for (Analysis a : an) {
                        a.fetch(t, c, laneClock[c], p0 + i * InstructionStream.WORD, InstructionStream.WORD);
                    }
                    tick(c, t, 1);
                }
            }
            pc[t] = target;
            pcValid[t] = true;
        }
        for (Analysis a : an) {
            a.branch(t, c, laneClock[c], k, source, target);
        }
    }

    private void call(int c, int t, TraceReader r) {
        times.read(t, r);
        int type = r.callType();
        if (type == CallType.MARKER) {
            long cmd = r.arg(1);
            if (cmd == 1 || cmd == 3) {
                stopped[t] = true;
            } else if (cmd == 2 || cmd == 4) {
                stopped[t] = false;
            }
        }
        if (handleIo && (type == CallType.FILE_READ
                || type == CallType.FILE_WRITE)) {
            int q = rp.options().distributedIo ? c : 0;
            for (Analysis a : an) {
                a.io(t, c, q, laneClock[c], type == CallType.FILE_READ, r.arg(1), r.arg(2));
            }
        }
        ev.type = type;
        ev.startTime = times.start(t);
        ev.endTime = times.end(t);
        ev.arg1 = r.arg(1);
        ev.arg2 = r.arg(2);
        ev.arg3 = r.arg(3);
        ev.arg4 = r.arg(4);
        ev.waitClocks = 0;
        for (Analysis a : an) {
            a.call(t, c, laneClock[c], ev);
        }
    }
}
