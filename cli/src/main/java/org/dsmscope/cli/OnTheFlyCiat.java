package org.dsmscope.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.replay.Replay;
import picocli.CommandLine;

/**
 * The on-the-fly CIAT sink (seed 000 §2 and §4 {@code to_ciat}, SPEC §1): the agent finds it with
 * {@code ServiceLoader} in dsmscope.jar and runs it in an isolated class loader at the end of a traced run. It
 * takes the options of {@code dsmscope ciat} (from {@code CIAT_OPTIONS}), parses them with {@link CiatCommand}'s
 * own definitions, and runs the same {@link Replay} and CIAT (serial, or in {@code --partitions N} partitions into
 * which one reader of each stream is routed, or that each replay the run from a reader of their own where the
 * streams do not route: {@link #routes}, {@link CiatCommand#analyse}) on the run's per-thread streams,
 * writing {@code NAME.p.ciat_report}, {@code NAME.p.memory} and the requested extras exactly as {@code dsmscope ciat NAME.p}
 * does on the files of a {@code normal} run: while the program runs ({@link #analyseLive}, the streams read as the
 * agent hands them over, {@link LiveSource}) when the thread count is known, else at the end of the run.
 */
public final class OnTheFlyCiat extends OnTheFlySink {
    @Override
    public boolean handles(String type) {
        return "to_ciat".equals(type);
    }

    /** {@code -Ddsmscope.live.planAt} (see the ciat module's "Live plan"), or {@code otherwise}; checked. */
    private static long livePlanAt(long otherwise) {
        return org.dsmscope.trace.SystemProperties.longValue("dsmscope.live.planAt", otherwise, 0, Long.MAX_VALUE);
    }

    @Override
    public String check(String type, List<String> options) {
        try {
            livePlanAt(0);
            routes(2, new org.dsmscope.replay.ReplayOptions(), 0); // -Ddsmscope.partitions.mode, refused if malformed
        } catch (org.dsmscope.trace.BadInputException e) {
            return e.getMessage();
        }
        try {
            CiatCommand c = command(options);
            c.replayOptions().validate();
            c.ciatOptions().validate();
            c.partitionCount();
            return null;
        } catch (RuntimeException e) {
            return "CIAT_OPTIONS: " + e.getMessage();
        }
    }

    /** One reader per partition ({@code --partitions N}): each partition replays the run itself. */
    @Override
    public int liveReaders(String type, List<String> options) {
        try {
            return command(options).partitionCount();
        } catch (RuntimeException e) {
            return 1; // check() has refused the options
        }
    }

    /** One reader where the partitions are routed ({@link #routes}), else one per partition. */
    @Override
    public int liveReaders(String type, List<String> options, int level) {
        try {
            CiatCommand c = command(options);
            int parts = c.partitionCount();
            return routes(parts, c.replayOptions(), level) ? 1 : parts;
        } catch (RuntimeException e) {
            return 1; // check() has refused the options
        }
    }

    /** Runs CIAT on a replay, as {@code dsmscope ciat} does; returns the files written. */
    private static List<Path> run(CiatCommand c, Replay replay, PrintStream log) {
        org.dsmscope.ciat.CiatOptions co = c.ciatOptions();
        // partitions deal the pages from the counts of the first accesses (-Ddsmscope.live.planAt: how many)
        co.livePlanAt = livePlanAt(co.livePlanAt);
        int parts = c.partitionCount();
        List<Path> written = CiatCommand.analyse(replay, co, parts).written();
        mode("to_ciat", replay, parts, c.r.progress, log);
        problems("to_ciat", replay, written, log);
        return written;
    }

    @Override
    Parsed parse(List<String> options) {
        CiatCommand c = command(options);
        return new Parsed() {
            @Override
            public org.dsmscope.replay.ReplayOptions replayOptions() {
                return c.replayOptions();
            }

            @Override
            public List<Path> run(Replay replay, PrintStream log) {
                return OnTheFlyCiat.run(c, replay, log);
            }

            @Override
            public List<Path> outputs() {
                return c.ciat.json() == null ? List.of() : List.of(c.ciat.json());
            }
        };
    }

    /** The ciat options, parsed by {@code dsmscope ciat}'s own option definitions. */
    private static CiatCommand command(List<String> options) {
        CiatCommand c = new CiatCommand();
        new CommandLine(c).parseArgs(options.toArray(new String[0]));
        if (!c.sets.isEmpty() || c.r.traceList != null || c.r.callList != null) {
            throw new UserError("to_ciat analyses the traced run itself: give no trace sets or -t/-c lists"
                    + " (CALL_FILE_NAME names call traces)");
        }
        return c;
    }
}
