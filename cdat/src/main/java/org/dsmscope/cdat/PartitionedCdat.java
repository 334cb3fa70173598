package org.dsmscope.cdat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;

/**
 * CDAT in address partitions (SPEC §4 "Partitioning", seed 000 §5): every partition replays the synchronization
 * skeleton, reading the trace files itself ({@link Replay#runInPartitions}) or given its share of them by a router
 * ({@link Replay#runRouted} with {@link CdatRouter}); each partition's {@link Cdat} of every configuration simulates
 * the lines of its cache sets, and {@link Cdat#merge} adds them up into the serial run's results, report and JSON
 * (cdat/README.md "Partitions").
 */
public final class PartitionedCdat {
    private PartitionedCdat() {
    }

    /**
     * The smallest {@link Cdat#partitionSets} over {@code cfgs}: more partitions than this leave some without work.
     */
    public static int usefulPartitions(List<CdatConfig> cfgs) {
        int n = Integer.MAX_VALUE;
        for (CdatConfig c : cfgs) {
            n = Math.min(n, Cdat.partitionSets(c));
        }
        return n;
    }

    /**
     * Runs {@code replay} in {@code parts} partitions, one replay of the trace files each ({@link
     * Replay#runInPartitions}), each simulating one {@link Cdat} per supplier of {@code sims} (one per configuration,
     * made on the partition's thread), and returns one merged {@code Cdat} per configuration, in order, holding the
     * serial run's results and outputs. If the replay fails, every partition's traffic traces are abandoned.
     */
    public static List<Cdat> run(Replay replay, int parts, List<Supplier<Cdat>> sims) {
        return run(parts, sims, f -> replay.prescanFor(false, false).runInPartitions(parts, f));
    }

    /**
     * As {@link #run}, with the trace files read once in all ({@link Replay#runRouted}): each partition gets the
     * accesses {@link CdatRouter} gives it for the configurations {@code cfgs} (those {@code sims} make, in order;
     * {@code hpux}: {@code -HPUX}), and gaps for the others. The replay says which mode ran ({@link
     * Replay#partitionMode}): trace sets that do not route run one replay per partition, with the same results.
     */
    public static List<Cdat> runRouted(Replay replay, int parts, List<Supplier<Cdat>> sims, List<CdatConfig> cfgs,
            boolean hpux) {
        // CDAT detects no spins and reads no work profile: the prescan looks for neither
        return run(parts, sims, f -> replay.prescanFor(false, false).runRouted(parts, f, CdatRouter.of(cfgs, hpux,
                parts)));
    }

    /** Runs the partitions as {@code runner} does with the factory of each partition's analysis; merges them. */
    private static List<Cdat> run(int parts, List<Supplier<Cdat>> sims,
            Consumer<IntFunction<Analysis>> runner) {
        Cdat[][] made = new Cdat[parts][];
        boolean done = false;
        try {
            runner.accept(k -> {
                Cdat[] mine = new Cdat[sims.size()];
                for (int i = 0; i < mine.length; i++) {
                    mine[i] = sims.get(i).get();
                }
                made[k] = mine;
                return mine.length == 1 ? mine[0] : new Fanout(mine);
            });
            List<Cdat> merged = new ArrayList<>();
            for (int i = 0; i < sims.size(); i++) {
                List<Cdat> byPartition = new ArrayList<>();
                for (int k = 0; k < parts; k++) {
                    byPartition.add(made[k][i]);
                }
                merged.add(Cdat.merge(byPartition));
            }
            done = true;
            return merged;
        } finally {
            if (!done) {
                for (Cdat[] mine : made) {
                    for (int i = 0; mine != null && i < mine.length; i++) {
                        mine[i].abandon();
                    }
                }
            }
        }
    }

    /** One analysis feeding the CDATs of several configurations (one replay, several machines); one CDAT as is. */
    public static Analysis fanout(List<Cdat> sims) {
        return sims.size() == 1 ? sims.get(0) : new Fanout(sims.toArray(new Cdat[0]));
    }

    /** The CDATs of several configurations in one partition, fed by its replay. */
    private static final class Fanout implements Analysis {
        private final Cdat[] sims;

        Fanout(Cdat[] sims) {
            this.sims = sims;
        }

        @Override
        public void begin(ReplayContext ctx) {
            for (Cdat s : sims) {
                s.begin(ctx);
            }
        }

        @Override
        public void phaseBegin(Phase phase) {
            for (Cdat s : sims) {
                s.phaseBegin(phase);
            }
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            for (Cdat s : sims) {
                s.access(thread, cpu, clock, memType, size, store, address);
            }
        }

        @Override
        public void skipped(int thread, long clock, int count, long bytes) {
            for (Cdat s : sims) {
                s.skipped(thread, clock, count, bytes);
            }
        }

        @Override
        public void skippedFetching(int thread, int cpu, long clock, long address, int count, long bytes) {
            for (Cdat s : sims) {
                s.skippedFetching(thread, cpu, clock, address, count, bytes);
            }
        }

        @Override
        public void fetch(int thread, int cpu, long clock, long address, int size) {
            for (Cdat s : sims) {
                s.fetch(thread, cpu, clock, address, size);
            }
        }

        @Override
        public void fetchRun(int thread, int cpu, long clock, long address, int count) {
            for (Cdat s : sims) {
                s.fetchRun(thread, cpu, clock, address, count);
            }
        }

        @Override
        public void branch(int thread, int cpu, long clock, int kind, long source, long target) {
            for (Cdat s : sims) {
                s.branch(thread, cpu, clock, kind, source, target);
            }
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            for (Cdat s : sims) {
                s.call(thread, cpu, clock, call);
            }
        }

        @Override
        public void io(int thread, int cpu, int ioProcessor, long clock, boolean read, long address, long bytes) {
            for (Cdat s : sims) {
                s.io(thread, cpu, ioProcessor, clock, read, address, bytes);
            }
        }

        @Override
        public void waited(int thread, int cpu, long from, long to, int reason) {
            for (Cdat s : sims) {
                s.waited(thread, cpu, from, to, reason);
            }
        }

        @Override
        public void processorIdle(int cpu, long from, long to) {
            for (Cdat s : sims) {
                s.processorIdle(cpu, from, to);
            }
        }

        @Override
        public void phaseEnd(Phase phase, PhaseTimes times) {
            for (Cdat s : sims) {
                s.phaseEnd(phase, times);
            }
        }

        @Override
        public void end(ReplayContext ctx, PhaseTimes total) {
            for (Cdat s : sims) {
                s.end(ctx, total);
            }
        }
    }
}
