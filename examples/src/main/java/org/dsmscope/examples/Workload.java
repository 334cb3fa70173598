package org.dsmscope.examples;

/** One example program as a function: run it on {@code threads} threads at {@code size}, self-check, report. */
@FunctionalInterface
public interface Workload {
    /**
     * Runs the example.
     *
     * @throws UsageException when threads or size are out of range for this example (before any work starts)
     */
    Result run(int threads, int size);
}
