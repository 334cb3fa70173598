package org.dsmscope.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dsmscope.monitor.analysis.Summary;
import org.dsmscope.monitor.record.RecordingException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dsmscope monitor summary}: transport summaries and per-process times of a recording (seed 002 §4.1.3). */
@Command(name = "monitor", description = "Analyse recordings of the DSM monitor (Xunify).",
        subcommands = {MonitorCommand.SummaryCmd.class})
public final class MonitorCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code monitor summary RECORDING [--json FILE] [--threshold-ms MS] [--partial]}. */
    @Command(name = "summary", description = "Transport summary per process pair, time in computation / overhead /"
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

        @Override
        public Integer call() throws Exception {
            if (!Files.isRegularFile(recording)) {
                throw new UserError(recording + ": no such file");
            }
            Summary s;
            try {
                s = Summary.of(recording, partial, thresholdMs * 1_000_000L);
            } catch (RecordingException e) {
                throw new UserError(e.getMessage() + (partial ? "" : "; use --partial to summarize up to it"));
            }
            s.print(System.out);
            if (json != null) {
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), s.toJson());
            }
            return 0;
        }
    }
}
