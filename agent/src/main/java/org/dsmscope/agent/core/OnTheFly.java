package org.dsmscope.agent.core;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.dsmscope.agent.sink.AnalysisSink;

/**
 * On-the-fly CIAT ({@code to_ciat}, seed 000 §2 and §4, SPEC §1 and §3): the per-thread record streams spill,
 * compressed, to a private directory while the program runs; at the end of the run the analysis sink replays them
 * with the same replay engine and CIAT as {@code dsmscope ciat}, writes {@code NAME.p.ciat_report} and
 * {@code NAME.p.memory}, and the spilled streams are deleted. {@code -Ddsmscope.spill.keep=true} keeps them
 * instead, as {@code NAME.p.t} (what {@code type=compressed} writes), so a test can run {@code dsmscope ciat} on the
 * very records the on-the-fly analysis saw.
 */
final class OnTheFly {
    private OnTheFly() {
    }

    /**
     * A new private spill directory: {@code -Ddsmscope.spill.dir=DIR} if given, else beside the report (the
     * directory of {@code name}), so the spill goes to the disk the user chose rather than to a RAM-backed /tmp.
     */
    static Path spillDirectory(String name) throws IOException {
        return spillDirectory(name, ".dsmscope-spill-");
    }

    /** A new private directory named {@code prefix*}, where {@link #spillDirectory(String)} puts it. */
    static Path spillDirectory(String name, String prefix) throws IOException {
        String d = System.getProperty("dsmscope.spill.dir");
        Path dir = d != null && !d.isEmpty() ? Paths.get(d) : Paths.get(name).toAbsolutePath().getParent();
        Path spill = Files.createTempDirectory(dir, prefix);
        spill.toFile().deleteOnExit();
        return spill;
    }

    /**
     * A failed analysis's message with the spilled streams it names renamed to where they are kept
     * ({@code NAME.p.t}: the analysis' own trace set, which {@code dsmscope dump} and the offline tools read), and
     * where they are.
     */
    private static String kept(String msg, AgentOptions o, int p, List<Path> files) {
        String m = msg;
        for (int t = files.size() - 1; t >= 0; t--) {
            m = m.replace(files.get(t).toString(), org.dsmscope.trace.TraceSet.fileName(o.name, p, t));
        }
        return m + " (the run's records are kept as " + o.name + "." + p + ".0 .. " + o.name + "." + p + "."
                + (p - 1) + ")";
    }

    /** Runs the sink on the finished streams, reports what it wrote, and deletes the spilled streams. */
    static void analyse(AnalysisSink sink, AgentOptions o, int p, List<Path> files, Path spillDir, PrintStream err) {
        String base = o.name + "." + p;
        boolean failed = true;
        try {
            String calls = o.calls == null || o.calls.isEmpty() ? null : o.calls + "." + p;
            List<Path> written = sink.analyse(o.analysisType(), base, files, calls, o.analysisOptions, err);
            if (!o.quiet) {
                StringBuilder out = new StringBuilder("On-the-fly " + o.analysisTool() + " of " + p + " thread"
                        + (p == 1 ? "" : "s") + " stored in:\n");
                for (Path w : written) {
                    out.append("\tfile ").append(w).append('\n');
                }
                err.print(out);
                err.flush();
            }
            failed = false;
        } catch (IllegalArgumentException e) {
            TraceRuntime.analysisFailed(o.analysisType() + ": " + kept(e.getMessage(), o, p, files));
        } catch (RuntimeException | LinkageError e) {
            TraceRuntime.analysisFailed(o.analysisType() + ": the analysis failed: " + kept(e.toString(), o, p, files));
        } finally {
            // after a failure the records stay, under the names the message gives them
            boolean keep = failed || org.dsmscope.trace.SystemProperties.booleanValue(Bootstrap.SPILL_KEEP, false);
            for (int t = 0; t < files.size(); t++) {
                Path f = files.get(t);
                try {
                    if (keep) {
                        Files.move(f, Paths.get(org.dsmscope.trace.TraceSet.fileName(o.name, p, t)),
                                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    } else {
                        Files.deleteIfExists(f);
                    }
                } catch (IOException e) {
                    TraceRuntime.warn("cannot delete " + f + ": " + e.getMessage());
                }
            }
            try {
                Files.deleteIfExists(spillDir);
            } catch (IOException e) {
                TraceRuntime.warn("cannot delete " + spillDir + ": " + e.getMessage());
            }
        }
    }
}
