package org.dsmscope.explain;

import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.LongToIntFunction;
import org.dsmscope.replay.Replay;

/**
 * EXPLAIN's partitioned replay (SPEC §4 "Partitioning", §8; replay/README.md "Partitioned replay"): the replay runs
 * {@code N} times on N threads ({@link Replay#runInPartitions}), each partition's {@link DsmSimulator} keeping the
 * state of the pages (lines) the replay deals it and replaying the whole synchronization skeleton, and writing its
 * faults and synchronization records, each stamped with the callback that made it, into a {@link Log}. {@link
 * #merge} then puts the partitions' records in the serial run's order and numbers the faults as it did: per
 * callback, a spawned thread's start (one record, its pairs from every partition), the call's acquire (likewise),
 * then the faults by unit, each with the invalidations it made. The result is the serial fault trace, byte for byte.
 */
public final class PartitionedFaults {
    /** One partition's records: the faults and synchronization records in its order, with their callbacks. */
    public static final class Log implements FaultSink {
        final FaultTrace t;
        DsmSimulator sim;
        long[] faultEvent = new long[1024];
        long[] syncEvent = new long[256];

        Log(boolean lines, int unitSize) {
            t = new FaultTrace(lines, unitSize, 1);
        }

        @Override
        public void fault(int id, long time, int proc, long unit, boolean write, long address, long site, int offset,
                int size) {
            if (t.faults == faultEvent.length) {
                faultEvent = Arrays.copyOf(faultEvent, t.faults * 2);
            }
            faultEvent[t.faults] = sim.event();
            t.fault(id, time, proc, unit, write, address, site, offset, size);
        }

        @Override
        public void sync(long time, int proc, int kind, long[] units, int[] faults, int n) {
            if (t.syncs == syncEvent.length) {
                syncEvent = Arrays.copyOf(syncEvent, t.syncs * 2);
            }
            syncEvent[t.syncs] = sim.event();
            t.sync(time, proc, kind, units, faults, n);
        }
    }

    private final List<Log> logs;
    private final List<DsmSimulator> sims;

    private PartitionedFaults(List<Log> logs, List<DsmSimulator> sims) {
        this.logs = logs;
        this.sims = sims;
    }

    /**
     * Runs {@code replay} in {@code parts} partitions, each with a simulation at the granularity of {@code
     * unitSize}-byte pages or lines keeping its records (with a split map: counting only, see {@link
     * DsmSimulator}).
     */
    public static PartitionedFaults run(Replay replay, int parts, boolean lines, int unitSize,
            java.util.Map<Long, byte[]> split) {
        Log[] logs = new Log[parts];
        List<DsmSimulator> sims = replay.runInPartitions(parts, k -> {
            Log log = split == null ? new Log(lines, unitSize) : null;
            DsmSimulator s = new DsmSimulator(lines, unitSize, log, split);
            if (log != null) {
                log.sim = s;
                logs[k] = log;
            }
            return s;
        });
        return new PartitionedFaults(split == null ? Arrays.asList(logs) : List.of(), sims);
    }

    /** Partitions made by hand (tests): the simulations and, for each, the log it writes into. */
    static PartitionedFaults of(List<Log> logs, List<DsmSimulator> sims) {
        return new PartitionedFaults(logs, sims);
    }

    /** A log for {@code sim} to write into (it must be the sink {@code sim} was made with). */
    static Log log(boolean lines, int unitSize) {
        return new Log(lines, unitSize);
    }

    /** The simulation of the partition that keeps {@code unit}. */
    public DsmSimulator owner(long unit) {
        for (DsmSimulator s : sims) {
            if (s.owns(unit)) {
                return s;
            }
        }
        throw new IllegalStateException("no partition keeps unit " + unit);
    }

    /** Per line, the byte masks of {@link DsmSimulator#masks}, from the partition that keeps it. */
    public LongFunction<long[][]> masks() {
        return line -> owner(line).masks(line);
    }

    /** Per line, the coherence misses of {@link DsmSimulator#coherenceMisses}, from the partition that keeps it. */
    public LongToIntFunction coherenceMisses() {
        return line -> owner(line).coherenceMisses(line);
    }

    /** Writes the partitions' records into {@code out} in the serial run's order, faults numbered as it numbers them. */
    public void merge(FaultSink out) {
        int k = logs.size();
        int[] fi = new int[k];
        int[] si = new int[k];
        int[][] global = new int[k][];
        for (int p = 0; p < k; p++) {
            global[p] = new int[logs.get(p).t.faults];
        }
        Pairs pairs = new Pairs();
        int next = 0;
        while (true) {
            long e = Long.MAX_VALUE;
            for (int p = 0; p < k; p++) {
                e = Math.min(e, nextEvent(logs.get(p), fi[p], si[p]));
            }
            if (e == Long.MAX_VALUE) {
                return;
            }
            int before = next + Arrays.stream(si).sum();
            // a spawned thread's start, then the call's acquire: one record each, pairs from every partition
            for (int pass = 0; pass < 2; pass++) {
                pairs.clear();
                for (int p = 0; p < k; p++) {
                    Log l = logs.get(p);
                    int s = si[p];
                    if (syncNext(l, fi[p], s) && l.syncEvent[s] == e && l.t.sKind[s] != FaultSink.INVALIDATE
                            && (l.t.sKind[s] == FaultSink.START) == (pass == 0)) {
                        pairs.add(l.t, s, global[p]);
                        si[p]++;
                    }
                }
                pairs.emit(out);
            }
            // the faults of the callback by unit, each followed by the invalidations it made
            while (true) {
                int best = -1;
                for (int p = 0; p < k; p++) {
                    Log l = logs.get(p);
                    if (!syncNext(l, fi[p], si[p]) && fi[p] < l.t.faults && l.faultEvent[fi[p]] == e
                            && (best < 0 || l.t.unit[fi[p]] < logs.get(best).t.unit[fi[best]])) {
                        best = p;
                    }
                }
                if (best < 0) {
                    break;
                }
                Log l = logs.get(best);
                FaultTrace t = l.t;
                int f = fi[best]++;
                global[best][f] = next;
                out.fault(next++, t.time[f], t.proc[f], t.unit[f], t.write[f], t.address[f], t.site[f], t.offset[f],
                        t.size[f]);
                while (syncNext(l, fi[best], si[best]) && l.syncEvent[si[best]] == e
                        && t.sKind[si[best]] == FaultSink.INVALIDATE) {
                    pairs.clear();
                    pairs.add(t, si[best]++, global[best]);
                    pairs.emit(out);
                }
            }
            if (next + Arrays.stream(si).sum() == before) {
                throw new IllegalStateException("partition records at callback " + e + " out of the serial order");
            }
        }
    }

    /** True if the partition's next record is synchronization record s (it comes before fault f). */
    private static boolean syncNext(Log l, int f, int s) {
        return s < l.t.syncs && l.t.sBefore[s] <= f;
    }

    /** The callback of the partition's next record, or {@link Long#MAX_VALUE} when it has none left. */
    private static long nextEvent(Log l, int f, int s) {
        if (syncNext(l, f, s)) {
            return l.syncEvent[s];
        }
        return f < l.t.faults ? l.faultEvent[f] : Long.MAX_VALUE;
    }

    /** The pairs of one synchronization record gathered from the partitions, sorted by unit, then fault. */
    private static final class Pairs {
        long time;
        int proc;
        int kind = -1;
        int n;
        long[] units = new long[64];
        int[] faults = new int[64];

        void clear() {
            n = 0;
            kind = -1;
        }

        void add(FaultTrace t, int s, int[] global) {
            time = t.sTime[s];
            proc = t.sProc[s];
            kind = t.sKind[s];
            for (int i = t.sFirst[s]; i < t.sFirst[s + 1]; i++) {
                if (n == units.length) {
                    units = Arrays.copyOf(units, n * 2);
                    faults = Arrays.copyOf(faults, n * 2);
                }
                units[n] = t.pUnit[i];
                faults[n++] = global[t.pFault[i]];
            }
        }

        void emit(FaultSink out) {
            if (kind < 0) {
                return;
            }
            // sort indices by (unit, fault): units of different partitions interleave
            Integer[] idx = new Integer[n];
            for (int i = 0; i < n; i++) {
                idx[i] = i;
            }
            Arrays.sort(idx, (a, b) -> units[a] != units[b] ? Long.compare(units[a], units[b])
                    : Integer.compare(faults[a], faults[b]));
            long[] u = new long[n];
            int[] f = new int[n];
            for (int i = 0; i < n; i++) {
                u[i] = units[idx[i]];
                f[i] = faults[idx[i]];
            }
            out.sync(time, proc, kind, u, f, n);
        }
    }
}
