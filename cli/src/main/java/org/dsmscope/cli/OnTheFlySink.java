package org.dsmscope.cli;

import java.io.PrintStream;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.dsmscope.agent.sink.AnalysisSink;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine;

/**
 * What the on-the-fly sinks ({@link OnTheFlyCiat}, {@link OnTheFlyCdat}) share: the run's streams become a {@link
 * Replay} (of the spilled files at the end of the run, or live, one source per reader, while it runs) with the
 * replay options the tool's command parses from the agent's options, and the tool runs on it as its command does.
 */
abstract class OnTheFlySink implements AnalysisSink {
    /** A tool's options, parsed by its command's own definitions. */
    interface Parsed {
        /** The replay options. */
        ReplayOptions replayOptions();

        /** Runs the tool on {@code replay}; returns the files written, report first. */
        List<Path> run(Replay replay, PrintStream log);

        /** The files the options name that the tool writes (e.g. {@code --json FILE}), besides {@code NAME.p.*}. */
        List<Path> outputs();

        /** The files the options name that the tool reads (e.g. cdat's {@code --memory FILE}). */
        default List<Path> inputs() {
            return List.of();
        }
    }

    /** Parses the tool's options (a {@link CommandLine.ParameterException} or {@link UserError} if bad). */
    abstract Parsed parse(List<String> options);

    @Override
    public List<Path> analyse(String type, String base, List<Path> threadFiles, String calls, List<String> options,
            PrintStream log) {
        try {
            Parsed c = parse(options);
            TraceSet detailed = TraceSet.of(base, threadFiles);
            TraceSet callSet = calls == null ? null : TraceSet.ofPrefix(calls);
            return c.run(new Replay(detailed, callSet, c.replayOptions()), log);
        } catch (CommandLine.ParameterException | UserError | BadInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public String liveRefusal(String type, List<String> options, boolean calls) {
        if (calls) {
            return "call traces are matched against whole traces";
        }
        try {
            int i = parse(options).replayOptions().interleave;
            return i > 0 ? "-i " + i + " needs every trace's synchronization skeleton first" : null;
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }

    @Override
    public List<Path> analyseLive(String type, String base, List<List<ReadableByteChannel>> readers,
            LongSupplier firstCallTime, List<String> options, PrintStream log) {
        try {
            Parsed c = parse(options);
            List<Path> names = new ArrayList<>();
            for (int t = 0; t < readers.get(0).size(); t++) {
                names.add(Paths.get(base + "." + t));
            }
            TraceSet named = TraceSet.of(base, names);
            if (readers.size() == 1) {
                // one reader: serial, or routed into the partitions (routes)
                return c.run(Replay.live(named, new LiveSource(readers.get(0), firstCallTime, true),
                        c.replayOptions()), log);
            }
            List<Replay.Source> sources = new ArrayList<>();
            for (int r = 0; r < readers.size(); r++) {
                sources.add(new LiveSource(readers.get(r), firstCallTime, r == 0));
            }
            return c.run(Replay.live(named, sources, c.replayOptions()), log);
        } catch (CommandLine.ParameterException | UserError | BadInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * True if a live analysis in {@code parts} partitions routes one reader of each stream into them ({@link
     * Replay#routesLive}): several partitions, no skipping of bad records, a level below 3 (level 3 writes branch
     * and procedure records, whose instruction stream every partition needs), and no
     * {@code -Ddsmscope.partitions.mode=replays} (one reader per partition, for comparisons).
     */
    static boolean routes(int parts, ReplayOptions o, int level) {
        return parts > 1 && !o.skipBadRecords && level < 3
                && !CiatCommand.replaysAsked();
    }

    /** With {@code --progress}: one line on the program's standard error saying how {@code parts} partitions ran. */
    static void mode(String type, Replay replay, int parts, Boolean progress, PrintStream log) {
        if (parts > 1 && Boolean.TRUE.equals(progress)) {
            log.println("dsmscope agent: " + type + ": " + parts + " partitions, " + (Replay.MODE_ROUTED.equals(
                    replay.partitionMode()) ? "routed (each thread's stream read once)" : Replay.MODE_REPLAYS.equals(
                    replay.partitionMode()) ? "one replay of the streams per partition"
                    : "one replay, records handed to the partitions"));
            log.flush();
        }
    }

    /** Reports problems the replay continued past on the traced program's standard error. */
    static void problems(String type, Replay replay, List<Path> written, PrintStream log) {
        if (replay.problemCount() > 0) {
            log.println("dsmscope agent: " + type + ": continued past " + replay.problemCount() + " problem(s); first: "
                    + (replay.problems().isEmpty() ? "-" : replay.problems().get(0))
                    + (replay.problemCount() > 1 && !written.isEmpty() ? "; all are listed in " + written.get(0) : ""));
        }
    }
}
