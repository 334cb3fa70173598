package org.dsmscope.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dsmscope.cdat.Cdat;
import org.dsmscope.cdat.PartitionedCdat;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.options.CdatFlags;
import org.dsmscope.options.Summary;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope cdat}: the configuration dependent analysis (seed 000 §5, Appendix B and C, SPEC §6). One replay
 * of the traces feeds one simulated machine per configuration file; each writes {@code trace_file.p.cdat_report}
 * (with several configurations {@code trace_file.p.NAME.cdat_report}) and the traffic traces its configuration
 * asks for.
 */
@Command(name = "cdat", sortOptions = false, separator = " ",
        description = {"Configuration dependent analysis: simulates a DSM / NUMA machine on a trace set",
            "(seed 000 §5). Forms:",
            "  cdat [options] [calls_file.p] trace_file.p cfg_file",
            "  cdat [options] [-c call_list] -t trace_list cfg_file",
            "  cdat [options] [calls_file.p] trace_file.p --config cfg_file --config cfg_file ..."})
public final class CdatCommand implements Callable<Integer> {
    private static final String USAGE = "cdat [calls_file.p] trace_file.p cfg_file"
            + " or cdat [options] [-c call_list] -t trace_list cfg_file";

    @Parameters(arity = "0..3", paramLabel = "ARGS",
            description = "[calls_file.p] trace_file.p cfg_file: trace sets (files NAME.p.0 ...) and configuration")
    List<String> args = new ArrayList<>();

    @CommandLine.Mixin
    ReplayArgs r = new ReplayArgs();

    /** CDAT's options, shared with {@code dsmscope cluster cdat} (options module). */
    @CommandLine.Mixin
    CdatFlags cdat = new CdatFlags();

    @Option(names = "--partitions", paramLabel = "N",
            description = {"parallel simulation: each machine's lines in N partitions by cache set, on N threads",
                "(0 = one per core; default 1 = serial), each trace file read once; results identical to a serial run"})
    int partitions = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The configuration files of this run (inputs, which no output may replace). */
    private final List<Path> configFiles = new ArrayList<>();

    @Override
    public Integer call() {
        List<String> sets = new ArrayList<>(args);
        List<CdatConfig> cfgs = configurations(sets);
        if (sets.size() > 2) {
            throw new UserError("cdat: too many trace sets: " + sets + "; usage: " + USAGE);
        }
        ReplayOptions ro = r.replayOptions();
        ro.validate();
        int parts = partitionCount();
        TraceSet[] ts = r.traceSets("cdat", sets, USAGE);
        checkOutputs(ts, cfgs);
        r.warnUnused(spec);
        Replay replay = new Replay(ts[0], ts[1], ro);
        warnShared(cfgs, ro.interleave > 0 ? ro.interleave : replay.threads(), ro.interleave > 0);
        parts = usefulPartitions(cfgs, parts, replay);
        List<Cdat> sims;
        Progress shown = Progress.start(Progress.Mode.of(r.progress), "cdat", "replayed",
                spec.commandLine().getErr(), replay::progress, replay::expectedRecords);
        try {
            sims = simulate(replay, cfgs, parts);
        } finally {
            Progress.close(shown);
        }
        if (parts > 1 && Boolean.TRUE.equals(r.progress)) {
            spec.commandLine().getErr().println(modeLine(parts));
            spec.commandLine().getErr().flush();
        }
        RunFiles.warnUnverified(spec.commandLine().getErr(), replay.unverified());
        PrintWriter out = spec.commandLine().getOut();
        for (Cdat sim : sims) {
            Summary.cdat(out, sim.result());
            for (Path p : sim.written()) {
                out.println("cdat: wrote " + p);
            }
        }
        Summary.cdatProblems(out, replay.problemCount());
        out.flush();
        return 0;
    }

    /**
     * The configurations to simulate, parsed and checked: the {@code --config} files, else the last of the
     * positional arguments (removed from {@code sets}, which keeps the trace sets).
     */
    List<CdatConfig> configurations(List<String> sets) {
        configFiles.addAll(cdat.configFiles(sets, r.traceList == null ? 2 : 1, "cdat", USAGE));
        return cdat.configurations(configFiles, "cdat");
    }

    /**
     * Says on standard error, before the replay, which threads (processors of {@code -i p}) share one of a
     * configuration's processors (more of them than the thread map has processors): that processor's active and
     * idle cycles are then its threads' sums.
     */
    void warnShared(List<CdatConfig> cfgs, int replayProcessors, boolean interleaved) {
        for (CdatConfig c : cfgs) {
            String line = c.sharingLine(replayProcessors, interleaved ? "replay processor" : "thread");
            if (line != null) {
                spec.commandLine().getErr().println("dsmscope: warning: cdat " + c.name + ": " + replayProcessors
                        + (interleaved ? " replay processors" : " threads") + " on " + c.processors()
                        + " processors (thread_map " + c.threadMap.kind().name().toLowerCase(java.util.Locale.ROOT)
                        + "): " + line + "; a shared processor's cycles add up its threads' (cdat/README.md"
                        + " \"Thread map\")");
            }
        }
        spec.commandLine().getErr().flush();
    }

    /** The number of partitions {@code --partitions} asks for (0: one per core), checked. */
    int partitionCount() {
        return CiatCommand.partitionCount(partitions);
    }

    /**
     * {@code parts}, or fewer where the configurations' caches have fewer sets than that (more partitions would have
     * no lines to simulate; said on standard error), or where a live replay has another number of sources.
     */
    int usefulPartitions(List<CdatConfig> cfgs, int parts, Replay replay) {
        int useful = PartitionedCdat.usefulPartitions(cfgs);
        if (parts > useful) {
            spec.commandLine().getErr().println("dsmscope: warning: cdat: --partitions " + parts + ": the smallest"
                    + " cache has " + useful + " set" + (useful == 1 ? "" : "s") + ", so " + useful + " partition"
                    + (useful == 1 ? "" : "s") + " (cdat/README.md \"Partitions\")");
            spec.commandLine().getErr().flush();
            parts = useful;
        }
        return parts > 1 && (replay.partitionable(parts) || replay.routesLive(parts)) ? parts : 1;
    }

    /**
     * Simulates the configurations on {@code replay}, serially or in {@code parts} partitions (identical results):
     * one CDAT per configuration, with its results and outputs (also used by on-the-fly CDAT). Trace files run
     * routed ({@link PartitionedCdat#runRouted}: each read once) where the partitions' call traces fit ({@link
     * CiatCommand#replaysFit}) unless {@code -Ddsmscope.partitions.mode=replays} asks otherwise, else one replay
     * per partition where those fit, else serially; live streams with one source routed (each stream read once,
     * {@link Replay#routesLive}), with a source per partition one replay per partition. An error a routed partition
     * finds names the trace file's position, as the serial run's does (replay/README.md "Partitioned replay",
     * positions), and ends the command. {@link #mode} says which ran.
     */
    List<Cdat> simulate(Replay replay, List<CdatConfig> cfgs, int parts) {
        mode = null;
        if (parts > 1) {
            List<java.util.function.Supplier<Cdat>> make = new ArrayList<>();
            for (CdatConfig c : cfgs) {
                make.add(() -> cdat(c, cfgs.size()));
            }
            boolean live = replay.routesLive(parts);
            if (live || !replay.isLive() && !CiatCommand.replaysAsked()
                    && CiatCommand.replaysFit(parts, replay.traces().size())) {
                List<Cdat> sims = PartitionedCdat.runRouted(replay, parts, make, cfgs, r.replay.hpux());
                mode = replay.partitionMode();
                return sims;
            }
            if (replay.isLive() || CiatCommand.replaysFit(parts, 2 * replay.traces().size())) {
                List<Cdat> sims = PartitionedCdat.run(replay, parts, make);
                mode = Replay.MODE_REPLAYS;
                return sims;
            }
        }
        List<Cdat> sims = attach(replay, cfgs);
        run(replay, sims);
        return sims;
    }

    /** How the last {@link #simulate} ran its partitions ({@code Replay.MODE_…}); null: serially. */
    private String mode;

    /** The {@code --progress} line on how {@code parts} partitions ran. */
    private String modeLine(int parts) {
        return "cdat: " + parts + " partitions, " + (Replay.MODE_ROUTED.equals(mode) ? "routed (each trace file read"
                + " once)" : Replay.MODE_REPLAYS.equals(mode) ? "one replay of the trace files per partition"
                : "run serially (the partitions' replays would keep too many trace files open)");
    }

    /** One CDAT per configuration, plugged into {@code replay} (also used by the sweep). */
    List<Cdat> attach(Replay replay, List<CdatConfig> cfgs) {
        List<Cdat> sims = new ArrayList<>();
        for (CdatConfig c : cfgs) {
            Cdat sim = cdat(c, cfgs.size());
            sims.add(sim);
            replay.add(sim);
        }
        return sims;
    }

    /** The CDAT of configuration {@code c}, one of {@code of} in this run, with this command's options. */
    private Cdat cdat(CdatConfig c, int of) {
        return new Cdat(c, cdat.cdatOptions(c, of, r.replay.hpux()));
    }

    /**
     * Refuses, before a possibly long replay, outputs that could not be written at its end or that would replace an
     * input (a trace, a configuration, the memory usage file) or each other.
     */
    private void checkOutputs(TraceSet[] ts, List<CdatConfig> cfgs) {
        String base = ts[0].base();
        List<Path> ins = RunFiles.traceInputs(ts);
        ins.addAll(configFiles);
        ins.add(cdat.memory() != null ? cdat.memory() : Path.of(base + ".memory"));
        List<Path> outs = new ArrayList<>();
        for (CdatConfig c : cfgs) {
            String suffix = cfgs.size() > 1 ? c.name : null;
            outs.add(Cdat.output(base, suffix, "cdat_report"));
            if (c.detailedTrace) {
                outs.add(Cdat.output(base, suffix, "cdat_detailed"));
            }
            if (c.generalTrace) {
                outs.add(Cdat.output(base, suffix, "cdat_general.0"));
            }
        }
        if (cdat.json() != null) {
            outs.add(cdat.json());
        }
        RunFiles.check(ins, outs);
    }

    /** Runs the replay; if it fails, no partial traffic trace is left under a complete one's name. */
    static void run(Replay replay, List<Cdat> sims) {
        boolean done = false;
        try {
            replay.run();
            done = true;
        } finally {
            if (!done) {
                sims.forEach(Cdat::abandon);
            }
        }
    }
}
