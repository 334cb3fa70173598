package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dsmscope.examples.Examples;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Example programs traced at level 3 by the real agent (branch and procedure records, a symbol sidecar with the
 * memory-access offsets) and analysed in two partitions, routed, with {@code -Ddsmscope.streamsByAddress=true}:
 * their threads are routed by address while each partition reconstructs their instruction streams
 * (replay/README.md "Threads with an instruction stream"), and
 * {@code ciat --partitions 2} and {@code cdat --partitions 2} write the serial run's bytes: CIAT's report, memory
 * usage file, event trace and JSON; CDAT's report, JSON and traffic traces (1Touch placement, interconnect caches).
 */
class LevelThreePartitionsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"matmul", "workqueue", "pipeline"})
    void levelThreeTrace_inTwoRoutedPartitions_writesTheSerialRunsBytes(String name) throws IOException {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Examples.Entry e = Examples.byName(name);
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> trace = new ArrayList<>(List.of("trace", "--level", "3", "-o", dir.resolve(name).toString(),
                "--", java, "-cp", DemoCommand.findExamplesJar().toString(), e.mainClass().getName()));
        trace.addAll(e.smallArgs(2));
        CiatCommandTest.Run traced = CiatCommandTest.run(trace.toArray(new String[0]));
        assertEquals(0, traced.status(), traced.err());
        String set;
        try (Stream<Path> s = Files.list(dir)) {
            Path first = s.filter(p -> p.getFileName().toString().matches(name + "\\.\\d+\\.0")).findFirst()
                    .orElseThrow();
            set = first.toString().substring(0, first.toString().length() - 2);
        }
        assertTrue(Files.readString(Paths.get(set + ".symbols")).contains("\naccess\t"), "offsets in the sidecar");

        String[] ciatOut = {".ciat_report", ".memory", ".ciat_events"};
        List<byte[]> serial = ciat(set, ciatOut, "s.json");
        String before = System.getProperty(BY_ADDRESS);
        System.setProperty(BY_ADDRESS, "true");
        try {
            routed(set, ciatOut, serial);
        } finally {
            if (before == null) {
                System.clearProperty(BY_ADDRESS);
            } else {
                System.setProperty(BY_ADDRESS, before);
            }
        }
    }

    /** The replay's switch that routes threads with branch records by address ({@code ReplayOptions}). */
    private static final String BY_ADDRESS = "dsmscope.streamsByAddress";

    /** {@code ciat} and {@code cdat --partitions 2} of {@code set}, against the serial runs' bytes. */
    private void routed(String set, String[] ciatOut, List<byte[]> serial) throws IOException {
        CiatCommandTest.Run par = CiatCommandTest.run("ciat", "-ciat_events", "--progress", "--partitions", "2",
                "--json", dir.resolve("p.json").toString(), set);
        assertEquals(0, par.status(), par.err());
        assertTrue(par.err().contains("ciat: 2 partitions, routed (each trace file read once)"), par.err());
        assertSameBytes(set, ciatOut, serial, "ciat");
        assertEquals(-1L, Files.mismatch(dir.resolve("s.json"), dir.resolve("p.json")), "ciat --json");

        Path touch = Files.writeString(dir.resolve("touch.cfg"), "name = touch\nnodes = 2\nprocessors_per_node = 2\n"
                + "protocol = 6\npage_policy = 1Touch\ndata_cache = 4K 2 fifo\ninstruction_cache = 2K 2 lru\n"
                + "interconnect_cache = 64K 4 random\ngeneral_trace = 1\ndetailed_trace = 1\n");
        String[] cdatOut = {".cdat_report", ".cdat_detailed", ".cdat_general.0", ".cdat_general.1"};
        System.clearProperty(BY_ADDRESS);
        CiatCommandTest.Run one = CiatCommandTest.run("cdat", "--json", dir.resolve("cs.json").toString(), set,
                touch.toString());
        System.setProperty(BY_ADDRESS, "true");
        assertEquals(0, one.status(), one.err());
        List<byte[]> cdatSerial = read(set, cdatOut);
        CiatCommandTest.Run two = CiatCommandTest.run("cdat", "--progress", "--partitions", "2", "--json",
                dir.resolve("cp.json").toString(), set, touch.toString());
        assertEquals(0, two.status(), two.err());
        assertTrue(two.err().contains("cdat: 2 partitions, routed (each trace file read once)"), two.err());
        assertEquals(one.out(), two.out().replace("cp.json", "cs.json"), "cdat's summary and files written");
        assertSameBytes(set, cdatOut, cdatSerial, "cdat");
        assertEquals(-1L, Files.mismatch(dir.resolve("cs.json"), dir.resolve("cp.json")), "cdat --json");
    }

    /** A serial {@code ciat -ciat_events --json JSON set}: the bytes of the outputs {@code ext}. */
    private List<byte[]> ciat(String set, String[] ext, String json) throws IOException {
        CiatCommandTest.Run r = CiatCommandTest.run("ciat", "-ciat_events", "--json", dir.resolve(json).toString(),
                set);
        assertEquals(0, r.status(), r.err());
        return read(set, ext);
    }

    private static List<byte[]> read(String set, String[] ext) throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (String x : ext) {
            Path p = Paths.get(set + x);
            out.add(Files.readAllBytes(p));
            Files.delete(p);
        }
        return out;
    }

    private static void assertSameBytes(String set, String[] ext, List<byte[]> want, String tool)
            throws IOException {
        for (int i = 0; i < ext.length; i++) {
            byte[] got = Files.readAllBytes(Paths.get(set + ext[i]));
            assertTrue(i > 1 || want.get(i).length > 0, tool + ext[i] + " written");
            assertEquals(-1, java.util.Arrays.mismatch(want.get(i), got), tool + " --partitions 2: " + ext[i]);
        }
    }
}
