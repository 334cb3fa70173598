package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dsmscope.examples.Examples;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example program traced at level 2 by the real agent ({@code dsmscope trace}, 2 worker threads, small size)
 * and analysed by {@code dsmscope ciat}: the program's self-check passes under tracing (exit 0) and the replay of
 * its synchronization (spawn/join, barriers, locks, monitor wait/notify, conditions, latches, atomics) completes.
 * The pipeline's monitor wait/notify once made the replay report a deadlock.
 */
class ExamplesEndToEndTest {
    @TempDir
    Path dir;

    static Stream<String> examples() {
        return Examples.all().stream().map(Examples.Entry::name);
    }

    private static int run(StringWriter err, String... args) {
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        return cl.execute(args);
    }

    @ParameterizedTest
    @MethodSource("examples")
    void tracedExample_isAnalysedByCiat(String name) throws IOException {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Examples.Entry e = Examples.byName(name);
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> args = new ArrayList<>(List.of("trace", "--level", "2", "-o", dir.resolve(name).toString(),
                "--", java, "-cp", DemoCommand.findExamplesJar().toString(), e.mainClass().getName()));
        args.addAll(e.smallArgs(2));
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, args.toArray(new String[0])), err.toString());
        Path first;
        try (Stream<Path> s = Files.list(dir)) {
            first = s.filter(p -> p.getFileName().toString().matches(name + "\\.\\d+\\.0")).findFirst().orElseThrow();
        }
        String set = first.toString().substring(0, first.toString().length() - 2);
        int p = Integer.parseInt(set.substring(set.lastIndexOf('.') + 1));
        Path json = dir.resolve(name + ".json");
        StringWriter cerr = new StringWriter();
        assertEquals(0, run(cerr, "ciat", "--json", json.toString(), set), cerr.toString());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(p, root.path("threads").asInt());
        JsonNode agg = root.path("aggregate");
        assertTrue(agg.path("accesses").path("loads").asLong() > 0, name);
        assertTrue(agg.path("communication").path("raw").asLong() > 0, name + ": data moves between threads");
        assertTrue(Files.size(Paths.get(set + ".ciat_report")) > 0);
    }

    /**
     * SPEC §4: a level-3 trace of the matrix multiply is replayed with the memory-access instructions where the
     * symbol sidecar puts them; against the seed's reconstruction ({@code --seed-stream}) the same instructions are
     * fetched and the same accesses counted, but the events carry other clocks; two partitions give the serial run's
     * results and events.
     */
    @Test
    void levelThreeTrace_exactInstructionStream_sameCountsOtherClocks() throws IOException {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "trace", "--level", "3", "-o", dir.resolve("mm").toString(), "--", java, "-cp",
                DemoCommand.findExamplesJar().toString(), "org.dsmscope.examples.MatMul", "2", "24"), err.toString());
        String set;
        try (Stream<Path> files = Files.list(dir)) {
            Path first = files.filter(f -> f.getFileName().toString().matches("mm\\.\\d+\\.0")).findFirst()
                    .orElseThrow();
            set = first.toString().substring(0, first.toString().length() - 2);
        }
        assertTrue(Files.readString(Paths.get(set + ".symbols")).contains("\naccess\t"), "offsets in the sidecar");
        JsonNode[] agg = new JsonNode[3];
        String[] events = new String[3];
        for (int i = 0; i < 3; i++) {
            Path json = dir.resolve("mm" + i + ".json");
            List<String> args = new ArrayList<>(List.of("ciat", "-ciat_events", "--json", json.toString()));
            if (i == 1) {
                args.add("--seed-stream");
            } else if (i == 2) {
                args.addAll(List.of("--partitions", "2")); // each partition reconstructs as the serial run does
            }
            args.add(set);
            StringWriter cerr = new StringWriter();
            assertEquals(0, run(cerr, args.toArray(new String[0])), cerr.toString());
            agg[i] = new ObjectMapper().readTree(json.toFile()).path("aggregate");
            events[i] = Files.readString(Paths.get(set + ".ciat_events"));
        }
        long fetched = agg[0].path("instructionStream").path("fetched").asLong();
        assertTrue(fetched > agg[0].path("accesses").path("loads").asLong(), "fetches: " + fetched);
        assertEquals(fetched, agg[1].path("instructionStream").path("fetched").asLong());
        assertEquals(agg[0].path("accesses"), agg[1].path("accesses"));
        assertEquals(agg[0].path("endClock"), agg[1].path("endClock"), "the same instructions in all");
        assertTrue(!events[0].equals(events[1]), "the events' clocks move with their instructions");
        assertEquals(agg[0], agg[2], "partitioned: the serial run's results");
        assertEquals(events[0], events[2], "partitioned: the serial run's events");
    }
}
