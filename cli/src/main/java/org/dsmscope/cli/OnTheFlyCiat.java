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
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine;

/**
 * The on-the-fly CIAT sink (seed 000 §2 and §4 {@code to_ciat}, SPEC §1): the agent finds it with
 * {@code ServiceLoader} in dsmscope.jar and runs it in an isolated class loader at the end of a traced run. It
 * takes the options of {@code dsmscope ciat} (from {@code CIAT_OPTIONS}), parses them with {@link CiatCommand}'s
 * own definitions, and runs the same {@link Replay} and CIAT (serial, or in {@code --partitions N} partitions that
 * each replay the run from a reader of their own, as {@link CiatCommand#analyse}) on the run's per-thread streams,
 * writing {@code NAME.p.ciat_report}, {@code NAME.p.memory} and the requested extras exactly as {@code dsmscope ciat NAME.p}
 * does on the files of a {@code normal} run: while the program runs ({@link #analyseLive}, the streams read as the
 * agent hands them over, {@link LiveSource}) when the thread count is known, else at the end of the run.
 */
public final class OnTheFlyCiat implements AnalysisSink {
    @Override
    public boolean handles(String type) {
        return "to_ciat".equals(type);
    }

    /** {@code -Ddsmscope.live.planAt} (see the ciat module's "Live plan"), or {@code otherwise}; checked. */
    private static long livePlanAt(long otherwise) {
        long n = Long.getLong("dsmscope.live.planAt", otherwise);
        if (n < 0) {
            throw new IllegalArgumentException("-Ddsmscope.live.planAt: value " + n
                    + " out of range (a number of accesses, at least 0)");
        }
        return n;
    }

    @Override
    public String check(String type, List<String> options) {
        try {
            livePlanAt(0);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        try {
            CiatCommand c = parse(options);
            c.replayOptions().validate();
            c.ciatOptions().validate();
            c.partitionCount();
            return null;
        } catch (RuntimeException e) {
            return "CIAT_OPTIONS: " + e.getMessage();
        }
    }

    @Override
    public List<Path> analyse(String type, String base, List<Path> threadFiles, String calls, List<String> options,
            PrintStream log) {
        try {
            CiatCommand c = parse(options);
            TraceSet detailed = TraceSet.of(base, threadFiles);
            TraceSet callSet = calls == null ? null : TraceSet.ofPrefix(calls);
            return run(new Replay(detailed, callSet, c.replayOptions()), c, log);
        } catch (CommandLine.ParameterException | UserError | org.dsmscope.trace.BadInputException e) {
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

    /** One reader per partition ({@code --partitions N}): each partition replays the run itself. */
    @Override
    public int liveReaders(String type, List<String> options) {
        try {
            return parse(options).partitionCount();
        } catch (RuntimeException e) {
            return 1; // check() has refused the options
        }
    }

    @Override
    public List<Path> analyseLive(String type, String base, List<List<ReadableByteChannel>> readers,
            LongSupplier firstCallTime, List<String> options, PrintStream log) {
        try {
            CiatCommand c = parse(options);
            List<Path> names = new ArrayList<>();
            for (int t = 0; t < readers.get(0).size(); t++) {
                names.add(Paths.get(base + "." + t));
            }
            List<Replay.Source> sources = new ArrayList<>();
            for (int r = 0; r < readers.size(); r++) {
                sources.add(new LiveSource(readers.get(r), firstCallTime, r == 0));
            }
            Replay replay = Replay.live(TraceSet.of(base, names), sources, c.replayOptions());
            return run(replay, c, log);
        } catch (CommandLine.ParameterException | UserError | org.dsmscope.trace.BadInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Runs CIAT on a replay, as {@code dsmscope ciat} does; returns the files written. */
    private static List<Path> run(Replay replay, CiatCommand c, PrintStream log) {
        org.dsmscope.ciat.CiatOptions co = c.ciatOptions();
        // partitions deal the pages from the counts of the first accesses (-Ddsmscope.live.planAt: how many)
        co.livePlanAt = livePlanAt(co.livePlanAt);
        List<Path> written = CiatCommand.analyse(replay, co, c.partitionCount()).written();
        if (replay.problemCount() > 0) {
            log.println("dsmscope agent: to_ciat: continued past " + replay.problemCount() + " problem(s); first: "
                    + (replay.problems().isEmpty() ? "-" : replay.problems().get(0))
                    + (replay.problemCount() > 1 && !written.isEmpty() ? "; all are listed in " + written.get(0) : ""));
        }
        return written;
    }

    /** The ciat options, parsed by {@code dsmscope ciat}'s own option definitions. */
    private static CiatCommand parse(List<String> options) {
        CiatCommand c = new CiatCommand();
        new CommandLine(c).parseArgs(options.toArray(new String[0]));
        if (!c.sets.isEmpty() || c.traceList != null || c.callList != null) {
            throw new UserError("to_ciat analyses the traced run itself: give no trace sets or -t/-c lists"
                    + " (CALL_FILE_NAME names call traces)");
        }
        return c;
    }
}
