package org.dsmscope.ciat;

import org.dsmscope.ciat.age.AgeStats;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.ciat.mix.MixStats;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;

/** CIAT's results for one phase, or the aggregate of all phases (seed 000 §3: statistics per phase). */
public final class PhaseStats implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Phase number from 1; 0 for the aggregate. */
    public final int id;
    /** Kind label (serial, parallel, user), or "aggregate". */
    public final String kind;
    /** Marker num of a user-defined phase, else -1. */
    public final int markerNum;
    /** Synchronized start and end clocks (-1 unknown). */
    public long startClock = -1;
    /** End clock. */
    public long endClock = -1;
    /** Instruction mix, instruction stream, calls. */
    public final MixStats mix;
    /** Communication. */
    public final CommStats comm;
    /** Access age. */
    public final AgeStats age;
    /** Concurrency times (per thread). */
    public final PhaseTimes times;

    /** Empty results for a phase. */
    public PhaseStats(int id, String kind, int markerNum, int threads, int processors) {
        this.id = id;
        this.kind = kind;
        this.markerNum = markerNum;
        mix = new MixStats(threads);
        comm = new CommStats(processors);
        age = new AgeStats();
        times = new PhaseTimes(threads);
    }

    /** Empty results for {@code phase}. */
    static PhaseStats of(Phase phase, int threads, int processors) {
        PhaseStats s = new PhaseStats(phase.id(), phase.kind().label(), phase.markerNum(), threads, processors);
        s.startClock = phase.startClock();
        return s;
    }

    /** Adds another phase's counters (not its times: the aggregate's times come from the replay's total). */
    void addCounters(PhaseStats o) {
        mix.add(o.mix);
        comm.add(o.comm);
        age.add(o.age);
    }
}
