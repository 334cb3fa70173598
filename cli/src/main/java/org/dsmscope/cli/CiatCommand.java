package org.dsmscope.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.CiatRouter;
import org.dsmscope.ciat.LiveOwners;
import org.dsmscope.ciat.ParallelCiat;
import org.dsmscope.ciat.Partitioned;
import org.dsmscope.options.CiatFlags;
import org.dsmscope.options.Partitions;
import org.dsmscope.options.Summary;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope ciat}: the configuration independent analysis (seed 000 §4 and Appendix B, SPEC §5). Either
 * {@code ciat [calls_file.p] trace_file.p} or {@code ciat [options] [-c call_list] -t trace_list}; writes
 * {@code trace_file.p.ciat_report}, {@code trace_file.p.memory}, and on request the event trace and JSON.
 */
@Command(name = "ciat", sortOptions = false, separator = " ",
        description = {"Configuration independent analysis of a trace set (seed 000 §4).",
            "Instruction mix, communication, access age, concurrency and memory usage,",
            "per phase and aggregate. Forms:",
            "  ciat [options] [calls_file.p] trace_file.p",
            "  ciat [options] [-c call_list] -t trace_list"})
public final class CiatCommand implements Callable<Integer> {

    @Parameters(arity = "0..2", paramLabel = "TRACES",
            description = "[calls_file.p] trace_file.p: the call and detailed trace sets (files NAME.p.0 ...)")
    List<String> sets = new ArrayList<>();

    @CommandLine.Mixin
    ReplayArgs r = new ReplayArgs();

    /** CIAT's options, shared with {@code dsmscope cluster ciat} (options module). */
    @CommandLine.Mixin
    CiatFlags ciat = new CiatFlags();

    @Option(names = "--partitions", paramLabel = "N",
            description = {"parallel analysis: CIAT's work in N address partitions on N threads, each replaying",
                "the trace files (0 = one per core; default 1 = serial); results identical to a serial run"})
    int partitions = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        ReplayOptions ro = replayOptions();
        CiatOptions co = ciatOptions();
        ro.validate();
        co.validate();
        TraceSet[] ts = r.traceSets("ciat", sets, "ciat [calls_file.p] trace_file.p"
                + " or ciat [options] [-c call_list] -t trace_list");
        TraceSet detailed = ts[0];
        TraceSet calls = ts[1];
        int parts = partitionCount();
        checkOutputs(detailed, calls, co);
        r.warnUnused(spec);
        Replay replay = new Replay(detailed, calls, ro);
        Analysed done;
        Progress shown = Progress.start(Progress.Mode.of(r.progress), "ciat", "replayed", spec.commandLine().getErr(),
                replay::progress, replay::expectedRecords);
        try {
            done = analyse(replay, co, parts);
        } finally {
            Progress.close(shown);
        }
        if (parts > 1 && Boolean.TRUE.equals(r.progress)) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("ciat: " + parts + " partitions, " + partitionMode(replay));
            err.flush();
        }
        RunFiles.warnUnverified(spec.commandLine().getErr(), replay.unverified());
        Summary.ciat(spec.commandLine().getOut(), done.result(), done.written());
        Summary.ciatProblems(spec.commandLine().getOut(), spec.commandLine().getErr(), replay.problems(),
                replay.problemCount(), done.written());
        return 0;
    }

    /**
     * Refuses, before a possibly long analysis, outputs that could not be written at its end (an output name that
     * is a directory, a folder that does not exist or is not writable) or that would replace an input or each other.
     */
    static void checkOutputs(TraceSet detailed, TraceSet calls, CiatOptions co) {
        String base = detailed.base();
        List<Path> outs = new ArrayList<>(List.of(Path.of(base + ".ciat_report"), Path.of(base + ".memory")));
        if (co.events) {
            outs.add(Path.of(base + ".ciat_events"));
        }
        if (co.json != null) {
            outs.add(co.json);
        }
        RunFiles.check(RunFiles.traceInputs(detailed, calls), outs);
    }

    /** The number of analysis partitions {@code --partitions} asks for (0: one per core), checked. */
    int partitionCount() {
        return partitionCount(partitions);
    }

    /** The number of partitions {@code --partitions N} asks for (0: one per core), checked (also EXPLAIN's). */
    static int partitionCount(int partitions) {
        return Partitions.count(partitions, Runtime.getRuntime().availableProcessors());
    }

    /** What a CIAT run gave: its results and the files it wrote, report first. */
    record Analysed(CiatResult result, List<Path> written) {
    }

    /**
     * Runs CIAT with options {@code co} on {@code replay}, serially or in {@code parts} address partitions on
     * worker threads (identical results); also used by on-the-fly CIAT. Trace files are routed ({@link
     * Replay#runRouted}) or replayed once per partition ({@link Replay#runInPartitions}) when the partitions' open
     * files fit ({@link #replaysFit}); live streams are routed when they have one reader ({@link
     * Replay#routesLive}), replayed once per partition when they have a reader per partition ({@link
     * Replay#partitionable}); trace sets too large for that are replayed once and their records handed to the
     * partitions ({@link ParallelCiat}). An error a routed partition finds names the trace file's position, as the
     * serial run's does (replay/README.md "Partitioned replay", positions), and ends the run.
     */
    static Analysed analyse(Replay replay, CiatOptions co, int parts) {
        boolean live = replay.routesLive(parts);
        if (live || parts > 1 && !replay.isLive() && !replaysAsked() && replaysFit(parts, replay.traces().size())) {
            Ciat[] made = new Ciat[parts];
            boolean done = false;
            // live streams: the pages are dealt by the partitions while they run (LiveOwners), read once
            LiveOwners owners = new LiveOwners();
            try {
                List<Ciat> ps = replay.runRouted(parts, k -> made[k] = live ? new Ciat(co).liveRouted(owners)
                        : new Ciat(co), live ? CiatRouter.live(co, parts, owners) : CiatRouter.of(co, parts));
                Analysed a = merged(replay, co, ps);
                done = true;
                return a;
            } finally {
                if (!done) {
                    abandon(made);
                }
            }
        }
        if (parts > 1 && replay.partitionable(parts)
                && (replay.isLive() || replaysFit(parts, 2 * replay.traces().size()))) {
            Ciat[] made = new Ciat[parts]; // filled by the partitions' threads (abandoned below if one fails)
            boolean done = false;
            try {
                List<Ciat> ps = replay.runInPartitions(parts, k -> made[k] = new Ciat(co));
                Analysed a = merged(replay, co, ps);
                done = true;
                return a;
            } finally {
                if (!done) {
                    abandon(made);
                }
            }
        }
        if (parts > 1) {
            try (ParallelCiat par = new ParallelCiat(co, parts)) {
                replay.add(par);
                replay.run();
                return new Analysed(par.result(), par.written());
            }
        }
        Ciat ciat = new Ciat(co);
        replay.add(ciat);
        boolean done = false;
        try {
            replay.run();
            done = true;
        } finally {
            if (!done) {
                ciat.abandon();
            }
        }
        return new Analysed(ciat.result(), ciat.written());
    }

    /**
     * System property that picks how {@code --partitions N} runs trace files: {@code replays} (one replay per
     * partition, {@link Replay#runInPartitions}) instead of the routed replay ({@link Replay#runRouted}) where that
     * applies; for comparisons (ciat/README.md "Parallel analysis").
     */
    static final String MODE_PROPERTY = "dsmscope.partitions.mode";

    /** True if {@link #MODE_PROPERTY} asks for {@code replays} ({@code routed}, the default, or absent: false). */
    static boolean replaysAsked() {
        return Replay.MODE_REPLAYS.equals(org.dsmscope.trace.SystemProperties.choice(MODE_PROPERTY,
                Replay.MODE_ROUTED, Replay.MODE_ROUTED, Replay.MODE_REPLAYS));
    }

    /** How the partitioned run of {@code replay} ran, for the {@code --progress} line. */
    static String partitionMode(Replay replay) {
        String m = replay.partitionMode();
        return m == null ? "one replay, records handed to the partitions" : Replay.MODE_ROUTED.equals(m)
                ? "routed (each trace file read once)" : "one replay of the trace files per partition";
    }

    /** The partitions' results merged (and written, if the options say so). */
    private static Analysed merged(Replay replay, CiatOptions co, List<Ciat> ps) {
        List<Path> written = new ArrayList<>();
        CiatResult res = co.writeFiles ? Partitioned.mergeAndWrite(ps, replay, written)
                : Partitioned.merge(ps).withProblems(replay.problems(), replay.problemCount());
        return new Analysed(res, written);
    }

    private static void abandon(Ciat[] made) {
        for (Ciat c : made) {
            if (c != null) {
                c.abandon();
            }
        }
    }

    /** At most this many trace files open (and mapped) at once by the partitions' replays together. */
    static final int MAX_REPLAY_FILES = 16384;

    /**
     * True if {@code parts} replays that each keep {@code files} trace files open (and mapped) fit the process's
     * limits: at most {@link #MAX_REPLAY_FILES} in all (mappings: Linux allows 65,530 by default) and the file
     * descriptors left. Otherwise the partitions share one replay ({@link ParallelCiat}): same results, one set of
     * open files.
     */
    static boolean replaysFit(int parts, int files) {
        long need = (long) parts * files;
        if (need > MAX_REPLAY_FILES) {
            return false;
        }
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
            com.sun.management.UnixOperatingSystemMXBean u = (com.sun.management.UnixOperatingSystemMXBean) os;
            return u.getOpenFileDescriptorCount() + need + 64 <= u.getMaxFileDescriptorCount();
        }
        return true;
    }

    /** The replay options these command-line options give (also used by on-the-fly CIAT). */
    ReplayOptions replayOptions() {
        return r.replayOptions();
    }

    /** The CIAT options these command-line options give (also used by on-the-fly CIAT). */
    CiatOptions ciatOptions() {
        return ciat.ciatOptions(r.replay.hpux());
    }
}
