package org.dsmscope.ciat;

import java.util.List;
import org.dsmscope.ciat.memory.MemoryFigures;

/** Everything CIAT found, as the report, JSON and tests read it. */
public final class CiatResult {
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

    /** Assembles a result. */
    public CiatResult(int threads, int processors, List<PhaseStats> phases, PhaseStats aggregate,
            MemoryFigures memory, String ageScope, int ageGranularity, double sampleRate, long busy1) {
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

    /** Busy(p) + Idle(p) + Imbalance(p) + Contention(p) of a phase, summed over threads. */
    public static long totalTime(PhaseStats s) {
        long n = 0;
        for (int t = 0; t < s.times.threads(); t++) {
            n += s.times.busy[t] + s.times.idle[t] + s.times.imbalance[t] + s.times.contention[t];
        }
        return n;
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
