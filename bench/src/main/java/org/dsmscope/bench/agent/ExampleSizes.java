package org.dsmscope.bench.agent;

import org.dsmscope.examples.Examples;

/**
 * Prints, per bundled example, {@code NAME MAIN_CLASS THREADS SIZE} at the small size its traced end-to-end tests
 * use (4 threads), for {@code bench/scripts/juc_slowdown.py}.
 */
public final class ExampleSizes {
    private ExampleSizes() {
    }

    /** Entry point. */
    public static void main(String[] args) {
        for (Examples.Entry e : Examples.all()) {
            System.out.println(e.name() + " " + e.mainClass().getName() + " 4 " + e.smallSize());
        }
    }
}
