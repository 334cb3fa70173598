package org.dsmscope.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dsmscope.trace.TraceConverter;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code dsmscope convert}: a trace set into another trace type, byte order or format variant. */
@Command(name = "convert", mixinStandardHelpOptions = true,
        description = {"Copy a trace set record for record into another trace type (normal, compressed),"
            + " byte order or format variant.",
            "Writes OUT.p.0 ... OUT.p.(p-1) (OUT is used as is if it already ends in .p)."})
public final class ConvertCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "IN", arity = "0..*",
            description = "A trace set NAME.p, or trace files in thread order.")
    List<String> inputs = new ArrayList<>();

    @Option(names = "-t", paramLabel = "LIST", description = "A list file naming the trace files.")
    Path list;

    @Option(names = "-o", required = true, paramLabel = "OUT", description = "Output trace set name.")
    String out;

    @Option(names = "--type", paramLabel = "normal|compressed", description = "Output trace type (default normal).")
    String type;

    @Option(names = "--codec", paramLabel = "zstd|lz4", description = "Codec for compressed output (default zstd).")
    String codec;

    @Option(names = "--byte-order", paramLabel = "big|little", description = "Output byte order (default big).")
    String byteOrder;

    @Option(names = "--extended", description = "Write the extended format (header, 64-bit addresses allowed).")
    boolean extended;

    @Option(names = "--classic", description = "Write classic headerless SMAIT (fails on records it cannot hold).")
    boolean classic;

    @Option(names = "--input-byte-order", paramLabel = "big|little",
            description = "Byte order of headerless input files (default: big unless detected).")
    String inputByteOrder;

    @Option(names = "--skip-bad-records", description = "Skip bad input records; report how many.")
    boolean skipBad;

    @Option(names = "--progress", negatable = true, description = "A progress line on standard error even when it"
            + " is not a terminal (default: only on a terminal, after a second); --no-progress: never.")
    Boolean progress;

    @Override
    public Integer call() throws IOException {
        if (extended && classic) {
            throw new UserError("convert: --extended and --classic exclude each other");
        }
        TraceSet in;
        if (list != null) {
            if (!inputs.isEmpty()) {
                throw new UserError("convert: give either -t LIST or trace files, not both");
            }
            in = TraceSet.ofList(list);
        } else {
            if (inputs.isEmpty()) {
                throw new UserError("convert: name the input trace set (NAME.p, files, or -t LIST)");
            }
            in = TraceSet.ofArguments(inputs);
        }
        TraceWriter.Options o = new TraceWriter.Options().codec(CliOptions.codec(type, codec)).background(true)
                .order(CliOptions.byteOrder(byteOrder, ByteOrder.BIG_ENDIAN));
        TraceConverter.Variant v = extended ? TraceConverter.Variant.EXTENDED
                : classic ? TraceConverter.Variant.CLASSIC : TraceConverter.Variant.SAME;
        TraceReader.Options ro = new TraceReader.Options().skipBadRecords(skipBad)
                .order(CliOptions.byteOrder(inputByteOrder, null));
        String prefix = TraceConverter.outputPrefix(CliOptions.outputName("-o", out), in.size());
        RunFiles.checkWritable(List.of(Path.of(prefix + ".0")));
        PrintWriter err = spec.commandLine().getErr();
        TraceConverter.Result r = new TraceConverter.Result();
        Progress shown = Progress.start(Progress.Mode.of(progress), "convert", "converted", err, () -> r.records,
                () -> -1);
        try {
            TraceConverter.convert(in, prefix, o, v, ro, r);
        } finally {
            Progress.close(shown);
        }
        err.println("dsmscope: converted " + r.records + " records into " + prefix + " (" + r.files.size()
                + " file" + (r.files.size() == 1 ? "" : "s") + ")");
        RunFiles.warnUnverified(err, r.unverified);
        for (String line : r.skippedFiles) {
            err.println("dsmscope: " + line);
        }
        if (r.skippedFiles.size() > 1) {
            err.println("dsmscope: skipped " + r.skipped + " bad records in all");
        }
        err.flush();
        return 0;
    }
}
