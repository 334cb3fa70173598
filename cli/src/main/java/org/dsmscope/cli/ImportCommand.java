package org.dsmscope.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dsmscope.trace.TraceWriter;
import org.dsmscope.trace.lackey.LackeyImporter;
import org.dsmscope.trace.lackey.SyncAddresses;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code dsmscope import}: traces collected by other tools (seed 000 §7) into SMAIT trace sets. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Import traces collected by other tools into a SMAIT trace set.",
        subcommands = {ImportCommand.Lackey.class})
public final class ImportCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "import: name a format (lackey)");
    }

    /** {@code dsmscope import lackey}: Valgrind Lackey output → NAME.p.t (mapping in trace/README.md). */
    @Command(name = "lackey", mixinStandardHelpOptions = true,
            description = {"Import the output of valgrind --tool=lackey --trace-mem=yes [--trace-sched=yes]",
                "(e.g. captured with --log-file=FILE) into the trace set NAME.p: I lines become instruction"
                    + " fetches, L/S loads/stores, M a load then a store; ==PID== lines are skipped.",
                "Threads come from the '--PID--   SCHED[n]:  acquired lock' lines, with a hand-off record pair at every"
                    + " switch so that the replay keeps Valgrind's order (analyse with: dsmscope ciat -p NAME.p).",
                "The files use the extended SMAIT format with 64-bit addresses."})
    public static final class Lackey implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "LACKEY_OUTPUT", description = "Lackey output (text).")
        Path input;

        @Option(names = "-o", required = true, paramLabel = "NAME",
                description = "Trace set name: writes NAME.p.0 ... NAME.p.(p-1).")
        String name;

        @Option(names = "--threads-from-sched",
                description = "One file per Valgrind thread seen in '--PID--   SCHED[n]:  acquired lock' lines"
                        + " (needs --trace-sched=yes), with a hand-off record pair at every switch so that the"
                        + " replay keeps Valgrind's order. The default; a log without such lines gives one file.")
        boolean threadsFromSched;

        @Option(names = "--one-thread",
                description = "All records into one file, whatever the scheduler lines say (no hand-offs).")
        boolean oneThread;

        @Option(names = "--sync-addresses", paramLabel = "ADDR[+BYTES][,...]",
                description = "Addresses of synchronization variables (lock words; hex 0x... or decimal; +BYTES"
                        + " covers accesses starting at any of BYTES bytes, e.g. a whole pthread_mutex_t):"
                        + " analyses leave their accesses out of communication. Repeatable.")
        java.util.List<String> syncAddresses = new java.util.ArrayList<>();

        @Option(names = "--sync-address-file", paramLabel = "FILE",
                description = "A file of such addresses, comma or space separated, '#' comments. Repeatable.")
        java.util.List<Path> syncAddressFiles = new java.util.ArrayList<>();

        @Option(names = "--type", paramLabel = "normal|compressed", description = "Trace type (default normal).")
        String type;

        @Option(names = "--codec", paramLabel = "zstd|lz4", description = "Codec for compressed traces.")
        String codec;

        @Option(names = "--byte-order", paramLabel = "big|little", description = "Byte order (default big).")
        String byteOrder;

        @Option(names = "--skip-bad-records", description = "Skip lines that do not parse; report how many.")
        boolean skipBad;

        @Option(names = "--progress", negatable = true, description = "A progress line on standard error even when"
                + " it is not a terminal (default: only on a terminal, after a second); --no-progress: never.")
        Boolean progress;

        @Override
        public Integer call() throws IOException {
            TraceWriter.Options o = new TraceWriter.Options().codec(CliOptions.codec(type, codec)).background(true)
                    .endRecord(true).order(CliOptions.byteOrder(byteOrder, java.nio.ByteOrder.BIG_ENDIAN));
            CliOptions.outputName("-o", name);
            RunFiles.checkWritable(java.util.List.of(java.nio.file.Path.of(name + ".1.0")));
            java.util.List<Path> inputs = new java.util.ArrayList<>(syncAddressFiles);
            inputs.add(input);
            RunFiles.checkSetName(inputs, name, false);
            java.io.PrintWriter err = spec.commandLine().getErr();
            if (oneThread && threadsFromSched) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "options --one-thread and --threads-from-sched exclude each other");
            }
            java.util.List<long[]> sync = new java.util.ArrayList<>();
            for (String s : syncAddresses) {
                sync.addAll(SyncAddresses.parseList("option --sync-addresses", s));
            }
            for (Path f : syncAddressFiles) {
                sync.addAll(SyncAddresses.read(f));
            }
            LackeyImporter imp = new LackeyImporter(o, !oneThread, skipBad).syncRanges(sync);
            LackeyImporter.Result r;
            Progress shown = Progress.start(Progress.Mode.of(progress), "import", "imported", err, imp::progress,
                    () -> -1);
            try {
                r = imp.run(input, name);
            } finally {
                Progress.close(shown);
            }
            err.println("dsmscope: imported " + r.records + " records into " + r.prefix(name) + " ("
                    + r.files.size() + " thread" + (r.files.size() == 1 ? "" : "s") + ")");
            if (r.files.size() > 1) {
                // Lackey output holds no thread creation or join: the replay must start every thread at once
                err.println("dsmscope: " + imp.handoffs() + " scheduler hand-offs keep Valgrind's order; the trace has"
                        + " no spawn or join records; analyse it with: dsmscope ciat -p " + r.prefix(name));
            }
            if (!sync.isEmpty()) {
                err.println("dsmscope: " + sync.size() + " synchronization address range"
                        + (sync.size() == 1 ? "" : "s") + " recorded");
            }
            if (r.skipped > 0) {
                err.println("dsmscope: " + input + ": skipped " + r.skipped + " bad line"
                        + (r.skipped == 1 ? "" : "s") + ", the first at " + r.firstSkipped);
            }
            err.flush();
            return 0;
        }
    }
}
