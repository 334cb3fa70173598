package org.dsmscope.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.cdat.Cdat;
import org.dsmscope.cdat.PartitionedCdat;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import picocli.CommandLine;

/**
 * The on-the-fly CDAT sink (seed 000 §2 and §5 {@code to_cdat}, SPEC §1), found by the agent as {@link OnTheFlyCiat}
 * is: it takes the options of {@code dsmscope cdat} ({@code CDAT_OPTIONS}, plus {@code --config
 * CONFIGURATION_FILE_NAME} from the agent), parses them with {@link CdatCommand}'s definitions and runs the same
 * {@link Replay} and {@link Cdat} on the run's streams, writing {@code NAME.p.cdat_report} and the traffic traces
 * the configuration asks for exactly as {@code dsmscope cdat NAME.p cfg} does on a {@code normal} run's files:
 * while the program runs when the thread count is known, else at its end.
 */
public final class OnTheFlyCdat extends OnTheFlySink {
    @Override
    public boolean handles(String type) {
        return "to_cdat".equals(type);
    }

    @Override
    public String check(String type, List<String> options) {
        try {
            CdatCommand c = command(options);
            c.r.replayOptions().validate();
            c.configurations(new ArrayList<>());
            c.partitionCount();
            return null;
        } catch (RuntimeException e) {
            return "CDAT_OPTIONS: " + e.getMessage();
        }
    }

    /** One reader per partition ({@code --partitions N}): each partition replays the run itself. */
    @Override
    public int liveReaders(String type, List<String> options) {
        try {
            CdatCommand c = command(options);
            List<CdatConfig> cfgs = c.configurations(new ArrayList<>());
            return Math.min(c.partitionCount(), PartitionedCdat.usefulPartitions(cfgs));
        } catch (RuntimeException e) {
            return 1; // check() has refused the options
        }
    }

    /** One reader where the partitions are routed ({@link #routes}), else one per partition. */
    @Override
    public int liveReaders(String type, List<String> options, int level) {
        try {
            CdatCommand c = command(options);
            List<CdatConfig> cfgs = c.configurations(new ArrayList<>());
            int parts = Math.min(c.partitionCount(), PartitionedCdat.usefulPartitions(cfgs));
            return routes(parts, c.r.replayOptions(), level) ? 1 : parts;
        } catch (RuntimeException e) {
            return 1; // check() has refused the options
        }
    }

    @Override
    Parsed parse(List<String> options) {
        CdatCommand c = command(options);
        return new Parsed() {
            @Override
            public ReplayOptions replayOptions() {
                return c.r.replayOptions();
            }

            @Override
            public List<Path> run(Replay replay, PrintStream log) {
                List<CdatConfig> cfgs = c.configurations(new ArrayList<>());
                int parts = Math.min(c.partitionCount(), PartitionedCdat.usefulPartitions(cfgs));
                int n = replay.partitionable(parts) || replay.routesLive(parts) ? parts : 1;
                List<Cdat> sims = c.simulate(replay, cfgs, n);
                mode("to_cdat", replay, n, c.r.progress, log);
                List<Path> written = new ArrayList<>();
                for (Cdat s : sims) {
                    written.addAll(s.written());
                }
                problems("to_cdat", replay, written, log);
                return written;
            }

            @Override
            public List<Path> outputs() {
                return c.cdat.json() == null ? List.of() : List.of(c.cdat.json());
            }

            @Override
            public List<Path> inputs() {
                return c.cdat.memory() == null ? List.of() : List.of(c.cdat.memory());
            }
        };
    }

    /** The cdat options, parsed by {@code dsmscope cdat}'s own option definitions. */
    private static CdatCommand command(List<String> options) {
        CdatCommand c = new CdatCommand();
        new CommandLine(c).parseArgs(options.toArray(new String[0]));
        if (!c.args.isEmpty() || c.r.traceList != null || c.r.callList != null) {
            throw new UserError("to_cdat simulates the traced run itself: give no trace sets or -t/-c lists"
                    + " (CALL_FILE_NAME names call traces, CONFIGURATION_FILE_NAME the configuration)");
        }
        return c;
    }
}
