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
}
