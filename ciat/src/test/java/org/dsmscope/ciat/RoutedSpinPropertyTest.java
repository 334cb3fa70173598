package org.dsmscope.ciat;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.gen.SpinGen;
import org.junit.jupiter.api.Test;

/**
 * Spin time in a routed run (module README "Spin time" and "Parallel analysis"; replay/README.md "Partitioned
 * replay"): random {@link SpinGen} trace sets (threads that spin on loops of 1 to 4 locations, of lengths around
 * the spin threshold of 5 loads a location and far above it, ended by another location's load, a store elsewhere,
 * the thread's own store to a spun word (a lock spin), a lock call or a barrier; threads that spin and threads that
 * do not store to the spun words before, while and after; phases from spawn, join and barriers) analysed serially
 * and routed in 2, 3, 7 and 16 partitions (pipes of a few bytes in some tries), with and without {@code
 * --spin-as-wait}: the routed run's report, memory usage file, event trace and JSON are the serial run's bytes, and
 * it ran routed.
 */
class RoutedSpinPropertyTest {
    private static final int[] PARTS = {2, 3, 7, 16};

    @Property(tries = 40)
    void routedRunOfSpinningThreads_writesTheSameBytesAsASerialRun(@ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll long seed, @ForAll boolean spinAsWait,
            @ForAll boolean events, @ForAll boolean tiny) throws IOException {
        check(PARTS[partsIndex], threads, seed, spinAsWait, events, tiny);
    }

    /** Fixed trace sets with spin time (so the property above compares spins, not only zeros). */
    @Test
    void spinTime_isTheSerialRunsInEveryPartitionCount() throws IOException {
        long spun = 0;
        for (long seed = 1; seed <= 6; seed++) {
            for (int parts : PARTS) {
                spun += check(parts, 4, seed, seed % 2 == 0, seed % 3 == 0, false);
            }
        }
        assertTrue(spun > 0, "the generated traces spin");
    }

    /** Returns the serial run's spin time (0 with {@code spinAsWait}). */
    private static long check(int parts, int threads, long seed, boolean spinAsWait, boolean events, boolean tiny)
            throws IOException {
        Path dir = Files.createTempDirectory("ciat-spin");
        try {
            CiatResult serial = RoutedCiatPropertyTest.assertRoutedWritesTheSerialBytes(
                    SpinGen.write(dir, "s", threads, seed), parts, json -> {
                        CiatOptions o = new CiatOptions();
                        o.events = events;
                        o.json = json;
                        o.spinAsWait = spinAsWait;
                        return o;
                    }, tiny ? seed & 63 : -1);
            long spin = 0;
            for (long s : serial.aggregate.times.spin) {
                spin += s;
            }
            return spin;
        } finally {
            try (var s = Files.list(dir)) {
                s.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }
}
