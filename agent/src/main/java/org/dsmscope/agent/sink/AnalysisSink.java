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

    /**
     * Null if this sink can analyse {@code type} with {@code options} while the program runs
     * ({@link #analyseLive}), else one line saying why not; the agent then analyses at the end of the run
     * ({@link #analyse}). {@code calls}: a call trace set was named.
     */
    default String liveRefusal(String type, List<String> options, boolean calls) {
        return "this analysis sink runs at the end of the run only";
    }

    /**
     * How many readers of every thread's records {@link #analyseLive} wants (at least 1): a partitioned analysis
     * replays the run once per partition, each reading every record. Asked once, before the program starts.
     */
    default int liveReaders(String type, List<String> options) {
        return 1;
    }

    /**
     * {@link #liveReaders(String, List)} for a run traced at instrumentation {@code level} (level 3 writes branch
     * and procedure records): what the agent asks. A sink that routes each stream once into its partitions (one
     * reader) where the records allow it overrides this one. By default the answer without the level.
     */
    default int liveReaders(String type, List<String> options, int level) {
        return liveReaders(type, options);
    }

    /**
     * Analyses the run while it runs, on a thread of the agent's (and any threads of its own):
     * {@code readers.get(r).get(t)} delivers thread t's SMAIT records (extended format, uncompressed) to reader r
     * as the program produces them, every record to each of the {@link #liveReaders} readers; records the slowest
     * reader has not taken stay queued (in memory within the budget, else spilled). A read blocks until more arrive, or
     * returns 0 when nothing is there yet and the buffer already holds at least one call record's 48 bytes, and -1
     * after the thread's last record. {@code firstCallTime} gives the run's first call time (µs) once every thread
     * has started; the agent writes no instruction-fetch records. Returns the files written, report first; throws
     * {@link IllegalArgumentException} with one line for bad input.
     */
    default List<Path> analyseLive(String type, String base,
            List<List<java.nio.channels.ReadableByteChannel>> readers,
            java.util.function.LongSupplier firstCallTime, List<String> options, PrintStream log) {
        throw new UnsupportedOperationException("analyseLive");
    }
}
