package org.dsmscope.cdat;

import java.util.List;
import org.dsmscope.cdat.config.CdatConfig;

/** The results of one CDAT run: per phase and aggregate {@link Counters}, and what the run covered. */
public final class CdatResult {
    /** One phase's counts. */
    public static final class PhaseCounts implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        /** Phase number, from 1. */
        public final int id;
        /** serial, parallel or user. */
        public final String kind;
        /** First and last clock of the phase (-1 if unknown). */
        public final long startClock;
        /** Last clock. */
        public final long endClock;
        /** The counts. */
        public final Counters counters;

        PhaseCounts(int id, String kind, long startClock, long endClock, Counters counters) {
            this.id = id;
            this.kind = kind;
            this.startClock = startClock;
            this.endClock = endClock;
            this.counters = counters;
        }
    }

    /** The configuration simulated. */
    public final CdatConfig config;
    /** Traces replayed (threads or processes). */
    public final int threads;
    /** Replay processors ({@code -i p}, or the threads). */
    public final int replayProcessors;
    /** I/O processors. */
    public final int ioProcessors;
    /** Per phase. */
    public final List<PhaseCounts> phases;
    /** All phases. */
    public final Counters aggregate;
    /** Lines the directory kept (per node for replicated pages). */
    public final long lines;
    /** Pages placed by their first reference. */
    public final long firstTouchedPages;
    /** Problems the replay continued past (with --skip-bad-records). */
    public final List<String> problems;
    /** How many. */
    public final long problemCount;

    CdatResult(CdatConfig config, int threads, int replayProcessors, int ioProcessors, List<PhaseCounts> phases,
            Counters aggregate, long lines, long firstTouchedPages, List<String> problems, long problemCount) {
        this.config = config;
        this.threads = threads;
        this.replayProcessors = replayProcessors;
        this.ioProcessors = ioProcessors;
        this.phases = List.copyOf(phases);
        this.aggregate = aggregate;
        this.lines = lines;
        this.firstTouchedPages = firstTouchedPages;
        this.problems = List.copyOf(problems);
        this.problemCount = problemCount;
    }
}
