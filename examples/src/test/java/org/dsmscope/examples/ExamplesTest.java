package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every registered example passes its self-check and gives one check value for 1, 2 and 4 threads. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExamplesTest {

    static Stream<Examples.Entry> examples() {
        return Examples.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void defaultSize_sameCheckValueAndPassFor1_2_4Threads(Examples.Entry e) {
        assertSameCheckAndPass(e, e.defaultSize(), 1, 2, 4);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void smallSize_sameCheckValueAndPassFor1_2_3_4_8Threads(Examples.Entry e) {
        assertSameCheckAndPass(e, e.smallSize(), 1, 2, 3, 4, 8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void repeatedRuns_giveTheSameLine(Examples.Entry e) {
        Result first = e.run(3, e.smallSize());
        Result second = e.run(3, e.smallSize());
        assertEquals(first.line(e.name(), 3, e.smallSize()), second.line(e.name(), 3, e.smallSize()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void zeroThreads_isAUsageError(Examples.Entry e) {
        assertThrows(UsageException.class, () -> e.run(0, e.smallSize()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void negativeSize_isAUsageError(Examples.Entry e) {
        assertThrows(UsageException.class, () -> e.run(2, -5));
    }

    @Test
    void registry_hasTheWorkloadsOfIssues3_22_26And28_withDistinctNamesAndMainMethods() throws Exception {
        assertEquals(List.of("matmul", "sor", "lu", "radix", "fft", "cg", "workqueue", "pipeline", "masterworker",
                "parkring", "spinbarrier", "prodcons", "migratory", "falsesharing", "padded", "fieldsharing",
                "fieldpadded", "queue", "executor", "parallelsum"),
                Examples.all().stream().map(Examples.Entry::name).toList());
        Set<Class<?>> classes = new HashSet<>();
        for (Examples.Entry e : Examples.all()) {
            assertTrue(classes.add(e.mainClass()), e.name());
            assertEquals(void.class, e.mainClass().getMethod("main", String[].class).getReturnType());
            assertEquals(List.of(Integer.toString(e.defaultThreads()), Integer.toString(e.defaultSize())),
                    e.defaultArgs());
            assertTrue(e.smallSize() < e.defaultSize(), e.name());
            assertTrue(!e.description().isEmpty() && !e.description().contains("\n"), e.name());
        }
    }

    @Test
    void byName_findsAnEntry_andRejectsAnUnknownNameListingTheKnownOnes() {
        assertEquals(Fft.class, Examples.byName("fft").mainClass());
        UsageException error = assertThrows(UsageException.class, () -> Examples.byName("nbody"));
        assertTrue(error.getMessage().contains("matmul, sor, lu"), error.getMessage());
    }

    private static void assertSameCheckAndPass(Examples.Entry e, int size, int... threadCounts) {
        String expected = null;
        for (int threads : threadCounts) {
            Result r = e.run(threads, size);
            assertTrue(r.ok(), () -> e.name() + " failed its self-check: " + r.line(e.name(), threads, size));
            String checkAndDetail = r.check() + " " + r.detail();
            if (expected == null) {
                expected = checkAndDetail;
            } else {
                assertEquals(expected, checkAndDetail, e.name() + " with " + threads + " threads");
            }
        }
    }
}
