package org.dsmscope.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dsmscope.monitor.analysis.Summary;
import org.dsmscope.monitor.record.RecordingException;
import org.dsmscope.trace.InputFile;
import org.dsmscope.trace.OutputFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dsmscope monitor summary} and {@code monitor watch}: transport summaries and per-process times of a recording (seed 002 §4.1.3). */
@Command(name = "monitor", mixinStandardHelpOptions = true, description = "Analyse recordings of the DSM monitor (Xunify); watch a run live.",
        subcommands = {MonitorCommand.SummaryCmd.class, MonitorCommand.WatchCmd.class})
public final class MonitorCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code monitor summary RECORDING [--json FILE] [--threshold-ms MS] [--partial] [--explain]}. */
    @Command(name = "summary", mixinStandardHelpOptions = true, description = "Transport summary per process pair, time in computation / overhead /"
            + " blocked per process, eventcount inconsistencies.")
    static final class SummaryCmd implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "RECORDING")
        Path recording;

        @Option(names = "--json", paramLabel = "FILE", description = "Also write the summary as JSON to FILE.")
        Path json;

        @Option(names = "--threshold-ms", description = "Eventcount inconsistency threshold (default 500 ms).",
                defaultValue = "500")
        long thresholdMs;

        @Option(names = "--partial", description = "Summarize a damaged recording up to the damage (with a warning).")
        boolean partial;

        @Option(names = "--explain", description = "Also print what each column means.")
        boolean explain;

        @Override
        public Integer call() throws Exception {
            // a recording is read with seeks (its index at the end): a pipe is refused, not misread
            InputFile.check(recording, null, "recording", false);
            if (thresholdMs < 0 || thresholdMs > Long.MAX_VALUE / 1_000_000L) {
                throw new UserError("option --threshold-ms: value " + thresholdMs + " out of range (0.."
                        + Long.MAX_VALUE / 1_000_000L + ")");
            }
            if (json != null) {
                RunFiles.check(List.of(recording), List.of(json));
            }
            Summary s;
            try {
                s = Summary.of(recording, partial, thresholdMs * 1_000_000L);
            } catch (RecordingException e) {
                throw new UserError(e.getMessage() + (partial ? "" : "; use --partial to summarize up to it"));
            }
            s.print(System.out, explain);
            if (json != null) {
                Object tree = s.toJson();
                OutputFile.write(json, tmp -> new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                        .writeValue(tmp.toFile(), tree));
            }
            return 0;
        }
    }

    /** {@code monitor watch --port PORT [--json] [--levels LIST] [--control] [--every S] [--wait S]}. */
    @Command(name = "watch", mixinStandardHelpOptions = true, description = "Print the events of a 'dsm run --live PORT' as they arrive, with a"
            + " roll-up per process and transport path every few seconds.")
    static final class WatchCmd implements Callable<Integer> {
        @Option(names = "--port", required = true, description = "Port of the run's live stream on 127.0.0.1.")
        int port;

        @Option(names = "--host", defaultValue = "127.0.0.1", description = "Host of the live stream (127.0.0.1).")
        String host;

        @Option(names = "--json", description = "Print the stream's JSON lines (dsmscope-live 1) and JSON roll-ups.")
        boolean json;

        @Option(names = "--levels", paramLabel = "LIST",
                description = "Classes of events to receive: program, message, transport, all or none.")
        String levels;

        @Option(names = "--control", description = "Forward lines 'levels LIST' from standard input while watching.")
        boolean control;

        @Option(names = "--every", paramLabel = "S", defaultValue = "2",
                description = "Print the roll-up every S seconds (0: only at the end; default 2).")
        double every;

        @Option(names = "--wait", paramLabel = "S", defaultValue = "30",
                description = "Keep trying to connect for S seconds (default 30).")
        long wait;

        @Override
        public Integer call() throws Exception {
            if (port < 1 || port > 65535) {
                throw new UserError("--port must be 1..65535, got " + port);
            }
            if (levels != null) {
                try {
                    org.dsmscope.monitor.event.Level.parseMask(levels);
                } catch (IllegalArgumentException e) {
                    throw new UserError("--levels: " + e.getMessage());
                }
            }
            org.dsmscope.monitor.route.LiveClient c;
            try {
                c = org.dsmscope.monitor.route.LiveClient.connect(host, port, wait * 1000);
            } catch (java.io.IOException e) {
                throw new UserError(e.getMessage());
            }
            try (c) {
                if (levels != null) {
                    c.command("levels " + levels);
                }
                int status = new org.dsmscope.monitor.route.LiveWatch(System.out, json, every)
                        .run(c, control ? System.in : null, System.err);
                return status < 0 ? 1 : 0;
            }
        }
    }
}
