package org.dsmscope.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dsmscope.report.BadResultException;
import org.dsmscope.report.Inputs;
import org.dsmscope.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope report} (SPEC §10, report/README.md): the seeds' figures from CIAT, CDAT, sweep and TDAT results
 * (and study manifests) in one self-contained HTML page, each figure over the numbers of processors of the results;
 * {@code --figures DIR} also writes every chart as SVG and PNG.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Draw the seeds' figures from result JSON files in one self-contained HTML page.",
            "Example: dsmscope report mm.1.ciat.json mm.2.ciat.json mm.4.ciat.json -o report.html"})
public final class ReportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RESULT", arity = "0..*",
            description = "CIAT, CDAT, sweep or TDAT JSON results, TDAT event.time files, or a study.json.")
    List<Path> files = new ArrayList<>();

    @Option(names = {"-o", "--output"}, defaultValue = "report.html", paramLabel = "FILE",
            description = "The HTML file to write (default report.html).")
    Path out;

    @Option(names = "--figures", paramLabel = "DIR", description = "Also write every chart as DIR/ID.svg and DIR/ID.png.")
    Path figures;

    @Option(names = "--allow-mixed", description = "Accept results of several programs (one section each).")
    boolean allowMixed;

    @Override
    public Integer call() throws IOException {
        write(files, allowMixed, out, figures);
        System.out.println("report: wrote " + out + " (" + out.toAbsolutePath().toUri() + ")");
        if (figures != null) {
            System.out.println("report: wrote the figures as SVG and PNG into " + figures);
        }
        return 0;
    }

    /** Reads the results and writes the page (and the figure files); a bad result is the user's mistake. */
    static void write(List<Path> files, boolean allowMixed, Path out, Path figures) throws IOException {
        RunFiles.checkWritable(List.of(out));
        for (Path f : files) {
            if (f.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize())) {
                throw new UserError(out + ": the report would overwrite one of its inputs");
            }
        }
        Inputs in;
        try {
            in = Inputs.read(files, allowMixed);
        } catch (BadResultException e) {
            throw new UserError(e.getMessage());
        }
        Report.write(in, out);
        if (figures != null) {
            Report.writeFigures(in, figures);
        }
    }
}
