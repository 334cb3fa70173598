package org.dsmscope.agent.sink;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The on-the-fly analysis sink of SPEC §1 (seed 000 §2, trace types {@code to_ciat} and {@code to_cdat}): the
 * agent hands it the per-thread SMAIT record streams of a run. Implementations live in the dsmscope distribution
 * jar ({@code cli/target/dsmscope.jar}), are found with {@link java.util.ServiceLoader} and run in their own class
 * loader whose parent is the platform loader, so neither the agent nor the traced program sees their classes.
 * Only JDK types cross this interface.
 */
public interface AnalysisSink {
    /** True if this sink analyses trace type {@code type} ({@code to_ciat}, {@code to_cdat}). */
    boolean handles(String type);

    /**
     * Checks the analysis options before the program runs; returns null if they are good, else one line saying
     * what is wrong.
     */
    String check(String type, List<String> options);

    /**
     * Analyses the run: {@code threadFiles.get(t)} holds thread t's SMAIT records (extended format, possibly
     * compressed, read with the trace module's reader), {@code base} is {@code NAME.p} (results are named from it),
     * {@code calls} an optional call trace set {@code CALLS.p} (null: none). Returns the files written, report
     * first. Throws {@link IllegalArgumentException} with one line for bad input.
     */
    List<Path> analyse(String type, String base, List<Path> threadFiles, String calls, List<String> options,
            PrintStream log);
}
