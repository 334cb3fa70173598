package org.dsmscope.cluster;

import java.io.Serializable;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.dsmscope.options.ReadFlags;
import org.dsmscope.options.ReplayFlags;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine;

/**
 * The work of one Spark task (SPEC §4 "Partitioning"): partition k of the driver's plan, replayed from the trace
 * set the task opens itself, analysed, and returned as a compact serializable value ({@code CiatPart}, {@code
 * CdatPart}s). The task reads partition k's routed streams, shuffled to it by address partition ({@link Shuffle}),
 * where the job routes ({@link #routing}) and the plan's traces do; else the whole trace set, keeping its
 * partition's share of the work. The cluster commands are their own jobs: the options a task needs travel with it.
 */
abstract class PartitionJob implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The detailed traces (set on the driver before the job is shipped). */
    TraceInput detailed;
    /** The call traces, or null. */
    TraceInput calls;

    /** True if every trace set is read where it lies (no copy through Hadoop: tasks need no Hadoop configuration). */
    boolean direct() {
        return detailed.direct() && (calls == null || calls.direct());
    }

    /** The replay model's options ({@code dsmscope ciat|cdat}'s, options module). */
    @CommandLine.Mixin
    ReplayFlags flags = new ReplayFlags();

    /** How the trace files are read ({@code dsmscope ciat|cdat}'s, options module). */
    @CommandLine.Mixin
    ReadFlags read = new ReadFlags();

    /** The replay options of the command line, checked (as {@code dsmscope ciat|cdat} check them). */
    ReplayOptions replayOptions() {
        ReplayOptions o = flags.replayOptions(read);
        o.validate();
        return o;
    }

    /**
     * Partition k of {@code plan.parts()}, run by {@code replay} (of the trace sets this task opened): the shippable
     * result of its analysis; thread t's records from {@code routed.apply(t)} (its routed stream, {@link
     * Replay#runPartition(Replay.Plan, int, org.dsmscope.replay.Analysis, IntFunction)}), or from the trace files
     * when {@code routed} is null.
     */
    abstract Serializable run(int k, Replay.Plan plan, Replay replay, IntFunction<ReadableByteChannel> routed);

    /**
     * What {@link Replay#runRouted} would be given for this analysis in {@code parts} partitions (which partitions
     * need an access), or null where the analysis has no router: then every task reads the whole trace set.
     */
    Function<ReplayContext, Replay.Router> routing(int parts) {
        return null;
    }

    /** The trace sets as a task opened them, and the scratch folders of their copies (deleted by {@link #close}). */
    static final class Inputs implements AutoCloseable {
        /** Detailed traces. */
        final TraceSet detailed;
        /** Call traces or null. */
        final TraceSet calls;
        private final Path scratchDetailed;
        private final Path scratchCalls;

        private Inputs(TraceSet detailed, TraceSet calls, Path scratchDetailed, Path scratchCalls) {
            this.detailed = detailed;
            this.calls = calls;
            this.scratchDetailed = scratchDetailed;
            this.scratchCalls = scratchCalls;
        }

        @Override
        public void close() {
            TraceInput.delete(scratchDetailed);
            TraceInput.delete(scratchCalls);
        }
    }

    /**
     * {@code message} (an error met reading {@code in}) with the scratch copies' files named by the URIs they were
     * copied from ({@link TraceInput#named}).
     */
    String named(String message, Inputs in) {
        String m = detailed.named(message, in.scratchDetailed);
        return calls == null ? m : calls.named(m, in.scratchCalls);
    }

    /** Opens this job's trace sets in this process ({@link TraceInput#open}); close the result when done. */
    Inputs open(Configuration conf, String root) {
        return open(conf, root, false);
    }

    /**
     * Opens this job's trace sets; with {@code namesOnly}, the detailed traces only for their names and sidecars
     * (copies: {@link TraceInput#open(Path, Configuration, String, boolean)}), for a replay of routed streams.
     */
    Inputs open(Configuration conf, String root, boolean namesOnly) {
        Path sd = detailed.scratch();
        Path sc = calls == null ? null : calls.scratch();
        boolean ok = false;
        try {
            TraceSet d = detailed.open(sd, conf, root, namesOnly);
            TraceSet c = calls == null ? null : calls.open(sc, conf, root);
            ok = true;
            return new Inputs(d, c, sd, sc);
        } finally {
            if (!ok) {
                TraceInput.delete(sd);
                TraceInput.delete(sc);
            }
        }
    }
}
