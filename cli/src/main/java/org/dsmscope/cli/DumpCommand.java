package org.dsmscope.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dsmscope.trace.TraceDump;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code dsmscope dump}: SMAIT trace records as text (format "dsmscope-dump 1", trace module README). */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Print the records of SMAIT trace files as text, one line per record.",
            "Output starts with the line 'dsmscope-dump 1' (or 'dsmscope-dump-summary 1' with --summary);"
                + " the format is documented in trace/README.md."})
public final class DumpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "0..*",
            description = "Trace files, or trace sets NAME.p (files NAME.p.0 ... NAME.p.(p-1)).")
    List<String> files = new ArrayList<>();

    @Option(names = "-t", paramLabel = "LIST", description = "A list file naming trace files, one per line.")
    Path list;

    @Option(names = "--summary", description = "Print counts per record type (and call type) instead of records.")
    boolean summary;

    @Option(names = "--skip-bad-records", description = "Skip bad records, report how many were skipped.")
    boolean skipBad;

    @Option(names = "--byte-order", paramLabel = "big|little",
            description = "Read headerless files in this byte order (default: big-endian unless detected).")
    String byteOrder;

    @Override
    public Integer call() throws IOException {
        List<Path> paths = new ArrayList<>();
        if (list != null) {
            paths.addAll(TraceSet.ofList(list).files());
        }
        if (!files.isEmpty()) {
            paths.addAll(TraceSet.ofArguments(files).files());
        }
        if (paths.isEmpty()) {
            throw new UserError("dump: name at least one trace file (or -t LIST)");
        }
        TraceReader.Options ro = new TraceReader.Options().skipBadRecords(skipBad)
                .order(CliOptions.byteOrder(byteOrder, null));
        PrintWriter err = spec.commandLine().getErr();
        Writer out = new BufferedWriter(new UntilClosed(spec.commandLine().getOut()), 1 << 16);
        try {
            return dump(paths, ro, out, err);
        } catch (UntilClosed.Closed e) {
            // the reader of the output went away (dump ... | head, | less then q): stop reading the traces
            return 0;
        } catch (java.io.UncheckedIOException e) {
            if (e.getCause() instanceof UntilClosed.Closed) {
                return 0;
            }
            throw e;
        }
    }

    private int dump(List<Path> paths, TraceReader.Options ro, Writer out, PrintWriter err) throws IOException {
        long skipped = 0;
        out.write(summary ? TraceDump.SUMMARY_FORMAT : TraceDump.FORMAT);
        out.write('\n');
        TraceDump.Summary total = new TraceDump.Summary();
        List<Path> unverified = new ArrayList<>();
        for (Path f : paths) {
            try (TraceReader r = TraceReader.open(f, ro)) {
                if (summary) {
                    out.write(TraceDump.fileLine(r));
                    out.write('\n');
                    TraceDump.Summary s = new TraceDump.Summary().count(r);
                    out.write(s.format());
                    total.add(s);
                } else {
                    TraceDump.dump(r, out);
                }
                if (r.skipped() > 0) {
                    err.println("dsmscope: " + r.skippedSummary());
                }
                skipped += r.skipped();
                if (!r.verifiable()) {
                    unverified.add(f);
                }
            }
        }
        if (summary && paths.size() > 1) {
            out.write("total " + paths.size() + " files\n");
            out.write(total.format());
        }
        out.flush();
        RunFiles.warnUnverified(err, unverified);
        err.flush();
        return 0;
    }

    /**
     * The command's output, checked once per buffer: a {@link PrintWriter} never throws, so without the check a dump
     * whose reader has gone (a closed pipe) would decode the rest of a multi-gigabyte trace for nothing.
     */
    static final class UntilClosed extends Writer {
        /** The output's reader has gone. */
        static final class Closed extends IOException {
            private static final long serialVersionUID = 1L;

            Closed() {
                super("output closed");
            }
        }

        private final PrintWriter out;

        UntilClosed(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void write(char[] buf, int off, int len) throws IOException {
            out.write(buf, off, len);
            flush();
        }

        @Override
        public void flush() throws IOException {
            // picocli's default output wraps System.out in a writer: the failure shows in System.out's flag only
            if (out.checkError() || System.out.checkError()) {
                throw new Closed();
            }
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
