package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.sidecar.DataMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, {@code dsmscope trace --trace-jdk}: the queue example traced at level 2 with the JDK's
 * {@code java.util.concurrent} classes instrumented. The producer's puts store into the slots of the queue's
 * array, named {@code ArrayBlockingQueue.items} in the data map, the consumers' takes read them, and CIAT counts
 * that hand-off as communication from the producer to the consumers on top of the items' own words, and {@code
 * dsmscope explain} names the array among its data structures. The example checks itself (the agent changes no
 * result) and a deadlock would fail the timeout.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TraceJdkEndToEndTest {
    private static final int ITEMS = 400;

    @TempDir
    Path dir;

    private static int run(StringWriter err, String... args) {
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        return cl.execute(args);
    }

    /** Traces the queue example (2 consumers, main among them, and the producer): the set's prefix NAME.3. */
    private String traceQueue(String name, boolean jdk) {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> args = new ArrayList<>(List.of("trace", "--level", "2"));
        if (jdk) {
            args.add("--trace-jdk");
        }
        args.addAll(List.of("-o", dir.resolve(name).toString(), "--", java, "-cp",
                DemoCommand.findExamplesJar().toString(), "org.dsmscope.examples.QueueHandoff", "2",
                Integer.toString(ITEMS)));
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, args.toArray(new String[0])), "the example passes its self-check: " + err);
        return dir.resolve(name + ".3").toString();
    }

    /** CIAT's communication matrix (events from thread i to thread j) of the set, checked to have no problem. */
    private static long[][] matrix(String set) throws IOException {
        Path json = Paths.get(set + ".json");
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "ciat", "--json", json.toString(), set), err.toString());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertTrue(root.path("problems").isMissingNode() || root.path("problems").isEmpty(), root.toString());
        JsonNode m = root.path("aggregate").path("communication").path("matrix");
        long[][] r = new long[m.size()][m.size()];
        for (int i = 0; i < m.size(); i++) {
            for (int j = 0; j < m.size(); j++) {
                r[i][j] = m.path(i).path(j).asLong();
            }
        }
        return r;
    }

    /** Loads (index 0) and stores (1) of thread {@code t} of the set in [lo, hi). */
    private static long[] accesses(String set, int t, long lo, long hi) throws IOException {
        long[] n = new long[2];
        try (TraceReader r = TraceReader.open(Paths.get(set + "." + t))) {
            for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                if (k == RecordKind.MEMORY && r.address() >= lo && r.address() < hi) {
                    n[r.memType() & 1]++;
                }
            }
        }
        return n;
    }

    @Test
    void queueExample_producerToConsumers_onArrayBlockingQueueItems() throws IOException {
        String set = traceQueue("jdk", true);
        DataMap map = DataMap.read(DataMap.pathFor(set));
        int items = -1;
        for (int i = 0; i < map.size(); i++) {
            if ("ArrayBlockingQueue.items".equals(map.name(i))) {
                items = i;
            }
        }
        assertTrue(items >= 0, "the queue's array is named in the data map");
        assertTrue(map.describe(map.start(items) + 16).startsWith("java.lang.Object["), map.describe(map.start(items)));
        // thread 1 is the producer (started first), threads 0 and 2 the consumers
        long[] producer = accesses(set, 1, map.start(items), map.end(items));
        long[] main = accesses(set, 0, map.start(items), map.end(items));
        long[] other = accesses(set, 2, map.start(items), map.end(items));
        assertTrue(producer[1] >= ITEMS + 2, "every put stores a slot: " + producer[1]);
        assertEquals(0, producer[0], "the producer never reads a slot");
        assertTrue(main[0] + other[0] >= ITEMS + 2, "every take reads its slot: " + (main[0] + other[0]));

        long[][] withJdk = matrix(set);
        long[][] without = matrix(traceQueue("plain", false));
        long fromProducer = withJdk[1][0] + withJdk[1][2];
        long plainFromProducer = without[1][0] + without[1][2];
        assertTrue(fromProducer >= plainFromProducer + ITEMS, "the slots' hand-off is communication from the producer: "
                + fromProducer + " with --trace-jdk, " + plainFromProducer + " without");
    }

    @Test
    void queueExampleTracedWithJdk_explainNamesArrayBlockingQueueItemsAmongItsDataStructures() throws IOException {
        String set = traceQueue("explained", true);
        Path json = dir.resolve("explained.json");
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "explain", "--granularity", "line", "--json", json.toString(), set), err.toString());
        JsonNode rows = new ObjectMapper().readTree(json.toFile()).path("byDataStructure");
        List<String> labels = new ArrayList<>();
        for (JsonNode r : rows) {
            labels.add(r.path("label").asText());
        }
        assertTrue(labels.stream().anyMatch(l -> l.startsWith("ArrayBlockingQueue.items (java.lang.Object[]) allocated at"
                + " java.util.concurrent.ArrayBlockingQueue.<init>:")), labels.toString());
    }

    @Test
    void traceJdk_needsLevel2() {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "trace", "--level", "1", "--trace-jdk", "-o", dir.resolve("x").toString(), "--",
                java, "-version"));
        assertTrue(err.toString().contains("--trace-jdk") && err.toString().contains("needs --level 2"), err.toString());
    }
}
