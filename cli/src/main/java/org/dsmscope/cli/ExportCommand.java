package org.dsmscope.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.viewer.export.ChromeTrace;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dsmscope export}: replayed trace sets in formats other tools display (SPEC §9). */
@Command(name = "export", mixinStandardHelpOptions = true, description = "Export a replayed trace set for other tools.",
        subcommands = {ExportCommand.Chrome.class})
public final class ExportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "export: name a format (chrome)");
    }

    /**
     * {@code dsmscope export chrome}: the replay's thread states, phases and lock hand-offs as Chrome trace-event
     * JSON, which Perfetto (ui.perfetto.dev) and chrome://tracing open.
     */
    @Command(name = "chrome", sortOptions = false, separator = " ",
            description = {"Thread states (busy, spin, idle, imbalance, contention, io), phases and lock hand-offs of the",
                "replay as Chrome trace-event JSON (open it in ui.perfetto.dev or chrome://tracing).",
                "  export chrome [options] [calls_file.p] trace_file.p [-o FILE]"})
    public static final class Chrome implements Callable<Integer> {
        @Parameters(arity = "0..2", paramLabel = "TRACES", description = "[calls_file.p] trace_file.p")
        List<String> sets = new ArrayList<>();

        @CommandLine.Mixin
        ReplayArgs r = new ReplayArgs();

        @Option(names = {"-o", "--output"}, paramLabel = "FILE",
                description = "output file (default: trace_file.p.chrome.json)")
        Path output;

        @Option(names = "--max-arrows", paramLabel = "N",
                description = "at most N lock hand-off arrows (default 1000000; the rest are counted)")
        long maxArrows = 1_000_000;

        @Option(names = "--spin-as-wait",
                description = "name spin-waits as the waits ciat --spin-as-wait books them as (imbalance, contention)")
        boolean spinAsWait;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            if (maxArrows < 0) {
                throw new UserError("option --max-arrows: value " + maxArrows + " out of range (0..)");
            }
            ReplayOptions ro = r.replayOptions();
            ro.validate();
            TraceSet[] ts = r.traceSets("export chrome", sets, "export chrome [calls_file.p] trace_file.p");
            Path out = output != null ? output : Path.of(ts[0].base() + ".chrome.json");
            RunFiles.check(RunFiles.traceInputs(ts), List.of(out));
            r.warnUnused(spec);
            Replay replay = new Replay(ts[0], ts[1], ro);
            ChromeTrace export = new ChromeTrace(out, ro.ipc * ro.mhz, maxArrows, spinAsWait);
            replay.add(export);
            Progress shown = Progress.start(Progress.Mode.of(r.progress), "export", "replayed",
                    spec.commandLine().getErr(), replay::progress, replay::expectedRecords);
            boolean done = false;
            try {
                replay.run();
                done = true;
            } finally {
                Progress.close(shown);
                if (!done) {
                    export.abandon();
                }
            }
            RunFiles.warnUnverified(spec.commandLine().getErr(), replay.unverified());
            spec.commandLine().getOut().printf(Locale.ROOT, "export: %d thread tracks, %d lock hand-offs; %.0f"
                    + " clocks per microsecond (IPC %s x %s MHz)%nexport: wrote %s%n", replay.threads(),
                    export.flows(), ro.ipc * ro.mhz, ro.ipc, ro.mhz, out);
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
