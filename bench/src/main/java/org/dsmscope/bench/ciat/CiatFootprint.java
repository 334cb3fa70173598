package org.dsmscope.bench.ciat;

import java.util.Locale;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.memory.MemoryFigures;

/**
 * Measures CIAT's memory per touched byte location (communication state) and per touched (thread, byte) pair
 * (access-age state) on the benchmark workloads, from the state's own array sizes and from the heap in use after
 * a full GC. Run: {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.ciat.CiatFootprint}.
 */
public final class CiatFootprint {
    private CiatFootprint() {
    }

    /** Prints one line per workload. */
    public static void main(String[] args) {
        measure("shared16", AccessStream.shared(16, CiatBench.ACCESSES, 0.30, 16, 42));
        measure("shared16Uniform", AccessStream.shared(16, CiatBench.ACCESSES, 0.30, 1, 42));
        measure("matmul4", AccessStream.matMul(4, CiatBench.MATMUL_N));
    }

    private static long used() {
        Runtime r = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return r.totalMemory() - r.freeMemory();
    }

    private static void measure(String name, AccessStream s) {
        StreamDriver d = new StreamDriver(s);
        long before = used();
        long t0 = System.nanoTime();
        Ciat c = d.run(new CiatOptions());
        long t1 = System.nanoTime();
        long after = used();
        MemoryFigures m = c.result().memory;
        long touched = m.get(5);
        long pairs = pairs(s);
        long commBytes = c.communication().footprintBytes();
        long ageBytes = c.accessAge().footprintBytes();
        System.out.printf(Locale.ROOT,
                "%s: %d accesses in %.2f s (one cold run, %.1f M/s); touched data bytes %d, (thread, byte) pairs %d;"
                        + " communication state %.1f B/location; access-age state %.1f B/pair;"
                        + " all CIAT state (heap delta) %.1f B/location%n",
                name, s.length, (t1 - t0) / 1e9, s.length / ((t1 - t0) / 1e3), touched, pairs,
                (double) commBytes / touched, (double) ageBytes / pairs, (double) (after - before) / touched);
        if (c.result() == null) {
            throw new IllegalStateException();
        }
    }

    /** Distinct (thread, byte) pairs touched (a simple count with a per-thread bitmap over page-local offsets). */
    private static long pairs(AccessStream s) {
        java.util.HashSet<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < s.length; i++) {
            for (int b = 0; b < s.size[i]; b++) {
                seen.add(((s.address[i] + b) << 5) | s.thread[i]);
            }
        }
        return seen.size();
    }
}
