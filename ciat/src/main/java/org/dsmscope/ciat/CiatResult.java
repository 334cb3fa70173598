package org.dsmscope.ciat;

import java.util.List;
import org.dsmscope.ciat.memory.MemoryFigures;

/** Everything CIAT found, as the report, JSON and tests read it. */
public final class CiatResult implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Number of threads (traces). */
    public final int threads;
    /** Number of processors. */
    public final int processors;
    /** Phases in order. */
    public final List<PhaseStats> phases;
    /** Aggregate over all phases. */
    public final PhaseStats aggregate;
    /** The twenty memory-usage figures (aggregate only, seed 000 §4.5). */
    public final MemoryFigures memory;
    /** Access-age scope label. */
    public final String ageScope;
    /** Access-age granularity, bytes. */
    public final int ageGranularity;
    /** Access-age sampling rate (1 = exact). */
    public final double sampleRate;
    /** Busy(1) if given, else -1. */
    public final long busy1;
    /** Problems the replay continued past ({@code --skip-bad-records}), at most 1000; empty for a complete run. */
    public final List<String> problems;
    /** Number of problems continued past: 0 for a complete run; otherwise the results are partial. */
    public final long problemCount;

    /** Assembles the result of a complete run. */
    public CiatResult(int threads, int processors, List<PhaseStats> phases, PhaseStats aggregate,
            MemoryFigures memory, String ageScope, int ageGranularity, double sampleRate, long busy1) {
        this(threads, processors, phases, aggregate, memory, ageScope, ageGranularity, sampleRate, busy1, List.of(),
                0);
    }

    /** Assembles a result; {@code problems} and {@code problemCount} say what the replay continued past. */
    public CiatResult(int threads, int processors, List<PhaseStats> phases, PhaseStats aggregate,
            MemoryFigures memory, String ageScope, int ageGranularity, double sampleRate, long busy1,
            List<String> problems, long problemCount) {
        this.problems = List.copyOf(problems);
        this.problemCount = problemCount;
        this.threads = threads;
        this.processors = processors;
        this.phases = List.copyOf(phases);
        this.aggregate = aggregate;
        this.memory = memory;
        this.ageScope = ageScope;
        this.ageGranularity = ageGranularity;
        this.sampleRate = sampleRate;
        this.busy1 = busy1;
    }

    /** This result with the problems a replay continued past. */
    public CiatResult withProblems(List<String> list, long count) {
        return new CiatResult(threads, processors, phases, aggregate, memory, ageScope, ageGranularity, sampleRate,
                busy1, list, count);
    }

    /** Busy(p) + Spin(p) + Idle(p) + Imbalance(p) + Contention(p) of a phase, summed over threads. */
    public static long totalTime(PhaseStats s) {
        long n = 0;
        for (int t = 0; t < s.times.threads(); t++) {
            n += s.times.busy[t] + s.times.spin[t] + s.times.idle[t] + s.times.imbalance[t] + s.times.contention[t];
        }
        return n;
    }

    /**
     * True if the trace set records instructions (fetches or branch records: level 3, or fetch extension records);
     * false for level 1 and 2 traces and imports without them, whose instruction counts are unknown, not zero.
     */
    public boolean instructionsTraced() {
        return aggregate.mix.totalFetched() > 0 || aggregate.mix.takenBranches > 0 || aggregate.mix.procedureCalls > 0;
    }

    /** Seed 001 §5.3's speedup Busy(1) / (total time / p) over all phases, or null if Busy(1) is unknown. */
    public Double speedup() {
        long total = totalTime(aggregate);
        if (busy1 < 0 || total == 0) {
            return null;
        }
        return busy1 / ((double) total / processors);
    }
}
