package org.dsmscope.replay;

import java.util.Arrays;

/**
 * The slice scheduler for T process traces on p processors (seed 000 §3, Appendix B {@code -i -a
 * -rr_interleaving -k -s -handle_io} and the I/O options; SPEC §4). A trace is cut into slices at the call records
 * that imply process synchronization (semop, semctl, ldcw, critical sections); a slice starts at the end time of
 * its head call and ends at the start time of its tail call (every trace's first slice starts at time 0: all
 * processes are ready when the traces begin; the last slice, with no tail call, constrains no other). A
 * discrete-event simulation over the pseudo clock then places the slices:
 *
 * <ul>
 * <li>Greedy (default): the ready slices, one per trace, in order of start time (ties: first ready first), are
 * dispatched to the lowest-numbered free processor, provided every slice that ended (in real time) before the
 * slice started has completed, which preserves the order of process synchronization; a slice whose predecessors
 * are not complete stops the list. With {@code -a} a process keeps the processor it first ran on (a slice whose
 * processor is busy waits, and later slices may pass it).
 * <li>{@code -rr_interleaving}: trace i runs on processor i mod p; a processor alternates its traces one slice at a
 * time, ignoring times.
 * <li>Time slicing: a slice longer than {@code -s v} instructions is scheduled off after v instructions (unless
 * {@code -k}); its rest becomes ready again with a start time interpolated in the slice's real-time span, behind
 * slices ready with the same start time, so a 250-instruction slice with {@code -s 100} runs as three segments of
 * 100, 100 and 50.
 * <li>With {@code -handle_io}, a file read (and a raw write) inside a slice ends the segment and swaps the process
 * out until the I/O completes ({@link IoModel}); the processor takes other work meanwhile.
 * </ul>
 * The result is a {@link Schedule}: per processor, the segments (trace, instruction range, start clock).
 */
public final class SliceScheduler {
    private final Skeleton[] sk;
    private final ReplayOptions o;
    private final int p;
    private final int nt;
    private final IoModel io;
    private boolean force;
    /** Order in which traces' slices became ready: ties of start time go first-come first-served. */
    private long[] readySeq;

    SliceScheduler(Skeleton[] sk, ReplayOptions o) {
        this.sk = sk;
        this.o = o;
        this.p = o.interleave;
        this.nt = sk.length;
        this.io = new IoModel(o, p);
    }

    /** Per processor, the segments it runs, in clock order. */
    public static final class Schedule {
        final int[][] trace;
        final long[][] from;
        final long[][] to;
        final long[][] start;
        /** Per segment: clocks its trace is swapped out for disk I/O right after it (from its end on). */
        final long[][] ioAfter;
        final int[] count;
        /** Clocks each trace spent swapped out for disk I/O. */
        final long[] ioBlocked;

        Schedule(int p, int nt) {
            trace = new int[p][16];
            from = new long[p][16];
            to = new long[p][16];
            start = new long[p][16];
            ioAfter = new long[p][16];
            count = new int[p];
            ioBlocked = new long[nt];
        }

        void add(int cpu, int t, long a, long b, long s) {
            int k = count[cpu];
            if (k == trace[cpu].length) {
                trace[cpu] = Arrays.copyOf(trace[cpu], k * 2);
                from[cpu] = Arrays.copyOf(from[cpu], k * 2);
                to[cpu] = Arrays.copyOf(to[cpu], k * 2);
                start[cpu] = Arrays.copyOf(start[cpu], k * 2);
                ioAfter[cpu] = Arrays.copyOf(ioAfter[cpu], k * 2);
            }
            trace[cpu][k] = t;
            from[cpu][k] = a;
            to[cpu][k] = b;
            start[cpu][k] = s;
            count[cpu] = k + 1;
        }

        /** Number of processors. */
        public int processors() {
            return count.length;
        }

        /** Segments run by processor {@code cpu}. */
        public int segments(int cpu) {
            return count[cpu];
        }

        /** Trace of segment k of processor cpu. */
        public int trace(int cpu, int k) {
            return trace[cpu][k];
        }

        /** First instruction (offset in its trace) of segment k. */
        public long from(int cpu, int k) {
            return from[cpu][k];
        }

        /** Instruction offset after the last instruction of segment k. */
        public long to(int cpu, int k) {
            return to[cpu][k];
        }

        /** Start clock of segment k. */
        public long start(int cpu, int k) {
            return start[cpu][k];
        }

        /** Clocks trace t spent swapped out waiting for disk I/O. */
        public long ioBlocked(int t) {
            return ioBlocked[t];
        }

        /**
         * Clocks the trace of segment k spent swapped out for disk I/O from the segment's end on (its file reads,
         * and raw writes, at the segment's last instruction), 0 if none.
         */
        public long ioAfter(int cpu, int k) {
            return ioAfter[cpu][k];
        }

        /** One line per segment, {@code cpu trace from-to @start}, for tests and debugging. */
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < count.length; c++) {
                for (int k = 0; k < count[c]; k++) {
                    b.append(c).append(' ').append(trace[c][k]).append(' ').append(from[c][k]).append('-')
                            .append(to[c][k]).append(" @").append(start[c][k]).append('\n');
                }
            }
            return b.toString();
        }
    }

    // per-trace slice tables (global slice ids)
    private int[] base;
    private long[] sliceFrom;
    private long[] sliceTo;
    private long[] sliceStart;
    private long[] sliceEnd;

    private void buildSlices() {
        base = new int[nt + 1];
        for (int t = 0; t < nt; t++) {
            base[t + 1] = base[t] + sk[t].bounds + 1;
        }
        int m = base[nt];
        sliceFrom = new long[m];
        sliceTo = new long[m];
        sliceStart = new long[m];
        sliceEnd = new long[m];
        for (int t = 0; t < nt; t++) {
            Skeleton s = sk[t];
            for (int j = 0; j <= s.bounds; j++) {
                int id = base[t] + j;
                sliceFrom[id] = j == 0 ? 0 : s.boundAt[j - 1];
                sliceTo[id] = j < s.bounds ? s.boundAt[j] : s.instructions;
                sliceStart[id] = j == 0 ? 0 : s.boundEnd[j - 1];
                sliceEnd[id] = j < s.bounds ? s.boundStart[j] : Long.MAX_VALUE;
            }
        }
    }

    /**
     * True if every slice that ended (in real time) before {@code s} has completed. A trace's slices end in
     * order, so it suffices that each other trace's first incomplete slice ends at or after {@code s}: O(T).
     */
    private boolean orderingOk(long s, int self, int[] slice) {
        for (int u = 0; u < nt; u++) {
            if (u != self && slice[u] >= 0 && sliceEnd[base[u] + slice[u]] < s) {
                return false;
            }
        }
        return true;
    }

    /** Computes the schedule. */
    public Schedule schedule() {
        buildSlices();
        Schedule out = new Schedule(p, nt);
        int[] slice = new int[nt];
        long[] done = new long[nt];
        long[] effStart = new long[nt];
        readySeq = new long[nt];
        long seq = nt;
        long[] blockedUntil = new long[nt];
        int[] nextIo = new int[nt];
        int[] aff = new int[nt];
        boolean[] running = new boolean[nt];
        int[] procTrace = new int[p];
        long[] procEnd = new long[p];
        int[] rrNext = new int[p];
        Arrays.fill(aff, -1);
        Arrays.fill(procTrace, -1);
        int left = nt;
        for (int t = 0; t < nt; t++) {
            effStart[t] = sliceStart[base[t]];
            readySeq[t] = t;
        }
        long now = 0;
        while (left > 0) {
            // completions at now
            for (int c = 0; c < p; c++) {
                int t = procTrace[c];
                if (t < 0 || procEnd[c] > now) {
                    continue;
                }
                procTrace[c] = -1;
                running[t] = false;
                Skeleton s = sk[t];
                while (nextIo[t] < s.ios && s.ioAt[nextIo[t]] <= done[t]) {
                    int k = nextIo[t]++;
                    if (io.blocks(s.ioRead[k])) {
                        long from = Math.max(now, blockedUntil[t]);
                        long fin = io.complete(from, s.ioBytes[k], c);
                        out.ioBlocked[t] += fin - from;
                        out.ioAfter[c][out.count[c] - 1] += fin - from; // the segment c just completed
                        blockedUntil[t] = fin;
                    }
                }
                int id = base[t] + slice[t];
                readySeq[t] = seq++;
                if (done[t] >= sliceTo[id]) {
                    slice[t]++;
                    if (slice[t] > sk[t].bounds) {
                        left--;
                        slice[t] = -1;
                        continue;
                    }
                    effStart[t] = sliceStart[base[t] + slice[t]];
                } else {
                    long a = sliceFrom[id];
                    long len = Math.max(1, sliceTo[id] - a);
                    long span = sliceEnd[id] == Long.MAX_VALUE ? 0 : sliceEnd[id] - sliceStart[id];
                    effStart[t] = sliceStart[id] + span * (done[t] - a) / len;
                }
            }
            // dispatch
            boolean dispatched = o.rrInterleaving ? dispatchRr(now, out, slice, done, blockedUntil, nextIo,
                    running, procTrace, procEnd, rrNext) : dispatchGreedy(now, out, slice, done, effStart,
                    blockedUntil, nextIo, aff, running, procTrace, procEnd);
            boolean zero = false;
            long next = Long.MAX_VALUE;
            for (int c = 0; c < p; c++) {
                if (procTrace[c] >= 0) {
                    zero |= procEnd[c] <= now;
                    next = Math.min(next, procEnd[c]);
                }
            }
            if (zero) {
                continue;
            }
            for (int t = 0; t < nt; t++) {
                if (slice[t] >= 0 && blockedUntil[t] > now) {
                    next = Math.min(next, blockedUntil[t]);
                }
            }
            if (next == Long.MAX_VALUE) {
                // only inconsistent times (a slice ending before it starts) can stop the list for good
                force = !dispatched;
                continue;
            }
            now = next;
        }
        return out;
    }

    private long segmentEnd(int t, long d, int id, int[] nextIo) {
        long end = sliceTo[id];
        if (!o.keepLongSlices && o.sliceLength < end - d) {
            end = d + o.sliceLength; // min(end, d + s) without d + s overflowing for a huge -s
        }
        Skeleton s = sk[t];
        for (int k = nextIo[t]; k < s.ios && s.ioAt[k] < end; k++) {
            if (io.blocks(s.ioRead[k])) {
                end = Math.max(d, s.ioAt[k]);
                break;
            }
        }
        return end;
    }

    private boolean dispatchGreedy(long now, Schedule out, int[] slice, long[] done, long[] effStart,
            long[] blockedUntil, int[] nextIo, int[] aff, boolean[] running, int[] procTrace, long[] procEnd) {
        boolean any = false;
        boolean[] tried = new boolean[nt];
        for (;;) {
            int best = -1;
            for (int t = 0; t < nt; t++) {
                if (slice[t] >= 0 && !running[t] && !tried[t] && blockedUntil[t] <= now
                        && (best < 0 || effStart[t] < effStart[best]
                        || (effStart[t] == effStart[best] && readySeq[t] < readySeq[best]))) {
                    best = t;
                }
            }
            if (best < 0) {
                return any;
            }
            tried[best] = true;
            int id = base[best] + slice[best];
            if (!force && !orderingOk(sliceStart[id], best, slice)) {
                return any;
            }
            force = false;
            int cpu = -1;
            if (o.affinity && aff[best] >= 0) {
                cpu = procTrace[aff[best]] < 0 ? aff[best] : -1;
                if (cpu < 0) {
                    continue;
                }
            } else {
                for (int c = 0; c < p; c++) {
                    if (procTrace[c] < 0) {
                        cpu = c;
                        break;
                    }
                }
                if (cpu < 0) {
                    return any;
                }
            }
            if (o.affinity && aff[best] < 0) {
                aff[best] = cpu;
            }
            start(best, cpu, now, out, id, done, nextIo, running, procTrace, procEnd);
            any = true;
        }
    }

    private boolean dispatchRr(long now, Schedule out, int[] slice, long[] done, long[] blockedUntil,
            int[] nextIo, boolean[] running, int[] procTrace, long[] procEnd, int[] rrNext) {
        boolean any = false;
        for (int c = 0; c < p; c++) {
            if (procTrace[c] >= 0) {
                continue;
            }
            for (int k = 0; k < nt; k++) {
                int t = (rrNext[c] + k) % nt;
                if (t % p != c || slice[t] < 0 || running[t] || blockedUntil[t] > now) {
                    continue;
                }
                rrNext[c] = (t + 1) % nt;
                start(t, c, now, out, base[t] + slice[t], done, nextIo, running, procTrace, procEnd);
                any = true;
                break;
            }
        }
        return any;
    }

    private void start(int t, int cpu, long now, Schedule out, int id, long[] done, int[] nextIo, boolean[] running,
            int[] procTrace, long[] procEnd) {
        long d = done[t];
        long end = segmentEnd(t, d, id, nextIo);
        out.add(cpu, t, d, end, now);
        done[t] = end;
        running[t] = true;
        procTrace[cpu] = t;
        procEnd[cpu] = now + (end - d);
    }
}
