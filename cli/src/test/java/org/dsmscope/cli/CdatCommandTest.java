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
import org.dsmscope.replay.Replay;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import org.dsmscope.tracedprog.LockHeavy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dsmscope cdat} end to end: a level-3 trace of the matrix multiply by the real agent simulated on the example
 * configurations (the counts CIAT gives for the same trace, the coherence checker on), the seed's and the {@code
 * --config} forms, several configurations in one replay, the user's mistakes, and on-the-fly {@code to_cdat} giving
 * the bytes {@code dsmscope cdat} gives on the same records.
 */
class CdatCommandTest {
    @TempDir
    static Path shared;
    @TempDir
    Path dir;

    private static String matmul;

    static Path config(String name) {
        Path p = Paths.get("..", "examples", "cdat", name);
        assertTrue(Files.isRegularFile(p), p.toString());
        return p;
    }

    @BeforeAll
    static void traceMatMul() throws IOException {
        if (TraceCommand.findAgentJar() == null) {
            return;
        }
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        CiatCommandTest.Run r = CiatCommandTest.run("trace", "--level", "3", "-o", shared.resolve("mm").toString(),
                "--", java, "-cp", DemoCommand.findExamplesJar().toString(), "org.dsmscope.examples.MatMul", "2",
                "24");
        assertEquals(0, r.status(), r.err());
        try (Stream<Path> files = Files.list(shared)) {
            Path first = files.filter(f -> f.getFileName().toString().matches("mm\\.\\d+\\.0")).findFirst()
                    .orElseThrow();
            matmul = first.toString().substring(0, first.toString().length() - 2);
        }
    }

    private static JsonNode json(Path p) throws IOException {
        return new ObjectMapper().readTree(p.toFile());
    }

    @Test
    void matMul_simulatedAccessesAreCiatsAndTheCheckerHolds() throws IOException {
        assumeTrue(matmul != null, "agent jar not built");
        Path cj = dir.resolve("c.json");
        assertEquals(0, CiatCommandTest.run("ciat", "--json", cj.toString(), matmul).status());
        for (String cfg : new String[] {"dsm4.cfg", "numa2x2.cfg"}) {
            Path dj = dir.resolve(cfg + ".json");
            CiatCommandTest.Run r = CiatCommandTest.run("cdat", "--check", "--json", dj.toString(), matmul,
                    config(cfg).toString());
            assertEquals(0, r.status(), r.err());
            assertTrue(r.out().startsWith("cdat: "), r.out());
            JsonNode ciat = json(cj).path("aggregate");
            JsonNode cdat = json(dj);
            assertEquals("dsmscope-cdat 1", cdat.path("format").asText());
            JsonNode data = cdat.path("aggregate").path("streams").path("data");
            long loads = ciat.path("accesses").path("loads").asLong();
            long stores = ciat.path("accesses").path("stores").asLong();
            assertEquals(loads + stores, data.path("hits").asLong() + data.path("misses").asLong(), cfg);
            JsonNode ins = cdat.path("aggregate").path("streams").path("instruction");
            assertEquals(ciat.path("instructionStream").path("fetched").asLong(),
                    ins.path("hits").asLong() + ins.path("misses").asLong(), cfg);
            assertEquals(data.path("misses").asLong(),
                    data.path("missesLocal").asLong() + data.path("missesRemote").asLong());
            if (cfg.equals("dsm4.cfg")) {
                assertTrue(data.path("missesRemote").asLong() > 0, "spread: two threads on two nodes share data");
            } else {
                // fill: both threads in node 0, where 1Touch places every page they touch first
                assertEquals(2, json(cj).path("threads").asInt());
                assertEquals(0, data.path("missesRemote").asLong(), cfg);
            }
            assertEquals(json(cj).path("phases").size(), cdat.path("phases").size(), "CIAT's phases");
        }
        List<String> written = Files.readAllLines(Paths.get(matmul + ".cdat_report"));
        assertEquals("# dsmscope-cdat-report 1", written.get(0));
        assertTrue(Files.size(Paths.get(matmul + ".cdat_detailed")) > 0, "numa2x2 asks for the detailed trace");
        assertTrue(Files.exists(Paths.get(matmul + ".cdat_general.3")), "one general trace per processor");
    }

    @Test
    void oneNode_hasNoRemoteMisses() throws IOException {
        assumeTrue(matmul != null, "agent jar not built");
        Path cfg = Files.writeString(dir.resolve("smp.cfg"), "nodes = 1\nprocessors_per_node = 4\n");
        Path dj = dir.resolve("smp.json");
        assertEquals(0, CiatCommandTest.run("cdat", "--json", dj.toString(), matmul, cfg.toString()).status());
        JsonNode data = json(dj).path("aggregate").path("streams").path("data");
        assertEquals(0, data.path("missesRemote").asLong());
        assertTrue(data.path("missesLocal").asLong() > 0);
    }

    @Test
    void seedForm_configOption_andSeveralConfigurationsAgree() throws IOException {
        assumeTrue(matmul != null, "agent jar not built");
        Path a = Files.copy(config("dsm4.cfg"), dir.resolve("a.cfg"));
        Path b = Files.writeString(dir.resolve("b.cfg"), "name = b\nprotocol = 3\npage_policy = 1Touch\n");
        assertEquals(0, CiatCommandTest.run("cdat", matmul, a.toString()).status());
        String seedForm = Files.readString(Paths.get(matmul + ".cdat_report"));
        assertEquals(0, CiatCommandTest.run("cdat", matmul, "--config", b.toString()).status());
        String bAlone = Files.readString(Paths.get(matmul + ".cdat_report"));
        CiatCommandTest.Run both = CiatCommandTest.run("cdat", matmul, "--config", a.toString(), "--config",
                b.toString());
        assertEquals(0, both.status(), both.err());
        assertEquals(seedForm, Files.readString(Paths.get(matmul + ".dsm4.cdat_report")), "one replay, two machines");
        assertEquals(bAlone, Files.readString(Paths.get(matmul + ".b.cdat_report")));
        assertTrue(both.out().contains("cdat: dsm4: ") && both.out().contains("cdat: b: "), both.out());
    }

    @Test
    void sweep_eachRowIsWhatCdatGivesForThatConfiguration() throws IOException {
        assumeTrue(matmul != null, "agent jar not built");
        Path sj = dir.resolve("sweep.json");
        CiatCommandTest.Run r = CiatCommandTest.run("sweep", matmul, config("dsm4.cfg").toString(), "--vary",
                "protocol=2,5", "--vary", "data_cache=4K 2 lru,32K 4 lru", "--json", sj.toString());
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals("# dsmscope-sweep 1", lines[0]);
        assertTrue(lines[1].startsWith("config\tprotocol\tdata_cache\tdata_hits%"), lines[1]);
        assertTrue(lines[4].startsWith("s03\t5\t4K 2 lru\t"), lines[4]);
        JsonNode configs = json(sj).path("configurations");
        assertEquals(4, configs.size());
        JsonNode s03 = configs.get(2);
        assertEquals("5", s03.path("varied").path("protocol").asText());
        // the same machine alone, by dsmscope cdat
        Path one = Files.writeString(dir.resolve("one.cfg"), "name = s03\nprotocol = 5\ndata_cache = 4K 2 lru\n");
        Path oj = dir.resolve("one.json");
        assertEquals(0, CiatCommandTest.run("cdat", "--json", oj.toString(), matmul, one.toString()).status());
        assertEquals(json(oj).path("aggregate"), s03.path("results").path("aggregate"));
        assertTrue(Files.exists(Paths.get(matmul + ".s04.cdat_report")));
        CiatCommandTest.Run bad = CiatCommandTest.run("sweep", matmul, config("dsm4.cfg").toString(), "--vary",
                "protocol=0");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--vary protocol=0: protocol: value 0 out of range (1..8)"), bad.err());
    }

    @Test
    void sameInputSameBytes() throws IOException {
        assumeTrue(matmul != null, "agent jar not built");
        List<byte[]> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            assertEquals(0, CiatCommandTest.run("cdat", matmul, config("numa2x2.cfg").toString()).status());
            runs.add(Files.readAllBytes(Paths.get(matmul + ".cdat_detailed")));
            runs.add(Files.readAllBytes(Paths.get(matmul + ".cdat_report")));
        }
        assertEquals(-1, java.util.Arrays.mismatch(runs.get(0), runs.get(2)));
        assertEquals(-1, java.util.Arrays.mismatch(runs.get(1), runs.get(3)));
    }

    @Test
    void mistakes_oneLineAndStatus2() throws IOException {
        assumeTrue(matmul != null, "agent jar not built");
        Path bad = Files.writeString(dir.resolve("bad.cfg"), "nodes = 4\nprotocol = 9\n");
        Path rr2 = Files.writeString(dir.resolve("rr2.cfg"), "page_policy = RR2\n");
        Path dup = Files.writeString(dir.resolve("dup.cfg"), "name = dsm4\n");
        String[][] cases = {
            {"bad.cfg:2: protocol: value 9 out of range (1..8)", "cdat", matmul, bad.toString()},
            {"no configuration file given", "cdat", matmul},
            {"no such CDAT configuration file", "cdat", matmul, dir.resolve("none.cfg").toString()},
            {"page policy RR2 reads the memory usage file", "cdat", matmul, rr2.toString(), "--memory",
                dir.resolve("none.memory").toString()},
            {"two configurations are named 'dsm4'", "cdat", matmul, "--config", config("dsm4.cfg").toString(),
                "--config", dup.toString()},
            {"option --json: one file per configuration", "cdat", "--json", "x.json", matmul, "--config",
                config("dsm4.cfg").toString(), "--config", bad.toString().replace("bad", "rr2")},
            {"too many trace sets", "cdat", matmul, matmul, matmul, "--config", config("dsm4.cfg").toString()},
            {"cannot write: folder", "cdat", "--json", dir.resolve("no/such/x.json").toString(), matmul,
                config("dsm4.cfg").toString()},
        };
        for (String[] c : cases) {
            CiatCommandTest.Run r = CiatCommandTest.run(java.util.Arrays.copyOfRange(c, 1, c.length));
            assertEquals(2, r.status(), c[0] + ": " + r.err());
            assertTrue(r.err().startsWith("dsmscope: ") && r.err().contains(c[0]), r.err());
            assertEquals(1, r.err().strip().split("\n").length, "one line: " + r.err());
        }
    }

    @Test
    void rr2_readsCiatsMemoryUsageFile() throws IOException {
        assumeTrue(matmul != null, "agent jar not built");
        assertEquals(0, CiatCommandTest.run("ciat", matmul).status());
        Path rr2 = Files.writeString(dir.resolve("rr2.cfg"), "page_policy = RR2\n");
        Path dj = dir.resolve("rr2.json");
        CiatCommandTest.Run r = CiatCommandTest.run("cdat", "--check", "--json", dj.toString(), matmul,
                rr2.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode ins = json(dj).path("aggregate").path("streams").path("instruction");
        assertEquals(0, ins.path("missesRemote").asLong(), "code is replicated in every node");
        assertTrue(ins.path("localMemory").asLong() > 0);
    }

    @Test
    void processTracesOnTwoProcessors_activityIsTheScheduledInstructions_andIoProcessorsHaveTraces() throws IOException {
        assertEquals(0, CiatCommandTest.run("gen", "processes", "--processes", "4", "--slices", "6", "-o",
                dir.toString(), "--name", "tpc").status());
        String set = dir.resolve("tpc.4").toString();
        Path cfg = Files.writeString(dir.resolve("io.cfg"), "nodes = 2\nprocessors_per_node = 2\ngeneral_trace = 1\n");
        Path cj = dir.resolve("c.json");
        Path dj = dir.resolve("d.json");
        String[] opts = {"-i", "2", "-handle_io", "-distributed_io"};
        List<String> ciat = new ArrayList<>(List.of("ciat", "--json", cj.toString()));
        ciat.addAll(List.of(opts));
        ciat.add(set);
        assertEquals(0, CiatCommandTest.run(ciat.toArray(new String[0])).status());
        List<String> cdat = new ArrayList<>(List.of("cdat", "--check", "--json", dj.toString()));
        cdat.addAll(List.of(opts));
        cdat.addAll(List.of(set, cfg.toString()));
        CiatCommandTest.Run r = CiatCommandTest.run(cdat.toArray(new String[0]));
        assertEquals(0, r.status(), r.err());
        long busy = 0;
        for (JsonNode b : json(cj).path("aggregate").path("concurrency").path("busy")) {
            busy += b.asLong();
        }
        long active = 0;
        JsonNode activity = json(dj).path("aggregate").path("processorActivity");
        for (JsonNode p : activity) {
            active += p.path("active").asLong();
        }
        assertEquals(busy, active, "every instruction of every process runs on one of the two processors");
        // spread: replay processor 0 on processor 0 of node 0 (0), replay processor 1 on processor 0 of node 1 (2)
        assertTrue(activity.get(0).path("active").asLong() > 0 && activity.get(2).path("active").asLong() > 0);
        assertEquals(0, activity.get(1).path("active").asLong() + activity.get(3).path("active").asLong());
        JsonNode io = json(dj).path("aggregate").path("streams").path("io");
        assertTrue(io.path("misses").asLong() > 0, "disk transfers go through the I/O processors");
        assertTrue(Files.size(Paths.get(set + ".cdat_general.io1")) > 0);
        assertTrue(Files.exists(Paths.get(set + ".cdat_general.io2")), "one I/O processor per replay processor");
        // processor 0's general trace: its idle intervals as status records, 92 then 91, in clock order
        List<String> status = new ArrayList<>();
        long last = -1;
        for (String line : Files.readAllLines(Paths.get(set + ".cdat_general.0"))) {
            String[] f = line.split(" ");
            long clock = Long.parseLong(f[0]);
            assertTrue(clock >= last, "clock order: " + line);
            last = clock;
            if (f[2].equals("91") || f[2].equals("92")) {
                status.add(f[2]);
            }
        }
        assertTrue(status.size() >= 2 && status.size() % 2 == 0, status.toString());
        for (int i = 0; i < status.size(); i++) {
            assertEquals(i % 2 == 0 ? "92" : "91", status.get(i));
        }
    }

    /** Traces LockHeavy on the fly with to_cdat, keeping the records; returns the kept records' folder. */
    private Path toCdat(List<String> opts, String name) throws IOException {
        List<String> a = new ArrayList<>(List.of("trace", "--level", "2", "--type", "to_cdat", "--config",
                config("numa2x2.cfg").toString(), "-o", name));
        a.addAll(opts);
        a.addAll(List.of("--", Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Ddsmscope.jar=" + System.getProperty("java.class.path"), "-Ddsmscope.spill.keep=true", "-cp",
                Paths.get("target", "test-classes").toAbsolutePath().toString(), LockHeavy.class.getName(), "2",
                "500", "64"));
        StringWriter err = new StringWriter();
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(0, cl.execute(a.toArray(new String[0])), err.toString());
        Path off = Files.createDirectory(dir.resolve("off-" + Paths.get(name).getFileName()));
        for (int t = 0; t < 3; t++) {
            Files.copy(Paths.get(name + ".3." + t), off.resolve("x.3." + t));
        }
        return off;
    }

    @Test
    void toCdat_atTheEndAndLive_writeWhatDsmscopeCdatWritesOnTheSameRecords() throws IOException {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        for (boolean live : new boolean[] {false, true}) {
            String name = dir.resolve(live ? "live" : "end").toString();
            Path off = toCdat(live ? List.of("--threads", "3") : List.of(), name);
            assertEquals(0, Main.run("cdat", off.resolve("x.3").toString(), config("numa2x2.cfg").toString()));
            for (String f : new String[] {"cdat_report", "cdat_detailed", "cdat_general.0", "cdat_general.2"}) {
                assertEquals(-1L, Files.mismatch(Paths.get(name + ".3." + f), off.resolve("x.3." + f)),
                        (live ? "live " : "at the end ") + f);
            }
        }
    }

    /** On the fly in 3 partitions (a reader per partition), at the end and live: a serial dsmscope cdat's bytes. */
    @Test
    void toCdat_inPartitions_writesWhatDsmscopeCdatWritesOnTheSameRecords() throws IOException {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        for (boolean live : new boolean[] {false, true}) {
            String name = dir.resolve(live ? "plive" : "pend").toString();
            List<String> opts = new ArrayList<>(List.of("--cdat-options", "--partitions 3"));
            if (live) {
                opts.addAll(List.of("--threads", "3"));
            }
            Path off = toCdat(opts, name);
            assertEquals(0, Main.run("cdat", off.resolve("x.3").toString(), config("numa2x2.cfg").toString()));
            for (String f : new String[] {"cdat_report", "cdat_detailed", "cdat_general.0", "cdat_general.2"}) {
                assertEquals(-1L, Files.mismatch(Paths.get(name + ".3." + f), off.resolve("x.3." + f)),
                        (live ? "live " : "at the end ") + f);
            }
        }
    }

    /**
     * Live in 2 and 3 partitions with one reader of each stream routed into them (cdat/README.md "Partitions", the
     * router's own first-reference table per thread): a serial dsmscope cdat's bytes on the same records, and the
     * run says it routed.
     */
    @Test
    void toCdat_liveInPartitions_routesOneReaderOfEachStream_andWritesWhatDsmscopeCdatWrites() throws IOException {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        for (int parts : new int[] {2, 3}) {
            String name = dir.resolve("routed" + parts).toString();
            // the traced JVM itself (as dsmscope trace starts it), so that its standard error can be read
            List<String> cmd = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xbootclasspath/a:" + TraceCommand.findAgentJar().toAbsolutePath(),
                    "-Ddsmscope.jar=" + System.getProperty("java.class.path"), "-Ddsmscope.spill.keep=true",
                    "-javaagent:" + TraceCommand.findAgentJar().toAbsolutePath() + "=level=2,type=to_cdat,threads=3,"
                            + "name=" + name,
                    "-cp", Paths.get("target", "test-classes").toAbsolutePath().toString(), LockHeavy.class.getName(),
                    "2", "500", "64");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("CONFIGURATION_FILE_NAME", config("numa2x2.cfg").toAbsolutePath().toString());
            pb.environment().put("CDAT_OPTIONS", "--partitions " + parts + " --progress");
            Process pr = pb.start();
            String err = new String(pr.getErrorStream().readAllBytes());
            try {
                assertEquals(0, pr.waitFor(), err);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            assertTrue(err.contains("to_cdat: " + parts + " partitions, routed (each thread's stream read once)"), err);
            Path off = Files.createDirectory(dir.resolve("off-routed" + parts));
            for (int t = 0; t < 3; t++) {
                Files.copy(Paths.get(name + ".3." + t), off.resolve("x.3." + t));
            }
            assertEquals(0, Main.run("cdat", off.resolve("x.3").toString(), config("numa2x2.cfg").toString()));
            for (String f : new String[] {"cdat_report", "cdat_detailed", "cdat_general.0", "cdat_general.2"}) {
                assertEquals(-1L, Files.mismatch(Paths.get(name + ".3." + f), off.resolve("x.3." + f)),
                        parts + " partitions: " + f);
            }
        }
    }

    /**
     * Issue 22: the main thread and 4 workers on dsm4.cfg's 4 processors: the command says before the replay which
     * threads share a processor, and the report and JSON say it too.
     */
    @Test
    void moreThreadsThanProcessors_saysWhichThreadsShareOne() throws IOException {
        assertEquals(0, CiatCommandTest.run("gen", "forkjoin", "--threads", "5", "--instructions", "2000", "-o",
                dir.toString(), "--name", "five").status());
        String set = dir.resolve("five.5").toString();
        Path json = dir.resolve("five.json");
        CiatCommandTest.Run r = CiatCommandTest.run("cdat", "--json", json.toString(), set,
                config("dsm4.cfg").toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("dsmscope: warning: cdat dsm4: 5 threads on 4 processors (thread_map spread): threads 0 and 4"
                + " share processor 0 (node 0); a shared processor's cycles add up its threads' (cdat/README.md"
                + " \"Thread map\")\n", r.err());
        assertTrue(Files.readString(Paths.get(set + ".cdat_report"))
                .contains("\n# shared_processor 0 node 0 replay_processors 0 4\n"));
        assertEquals("[{\"processor\":0,\"node\":0,\"replayProcessors\":[0,4]}]",
                json(json).path("sharedProcessors").toString());
        CiatCommandTest.Run four = CiatCommandTest.run("cdat", set, config("dsm4.cfg").toString(), "-i", "4");
        assertEquals(0, four.status(), four.err());
        assertEquals("", four.err(), "-i 4: four replay processors on four processors");
    }

    /**
     * SPEC §4 partitioning: {@code --partitions 2, 3, 0} give the serial run's report, JSON and summary line for two
     * machines in one replay (RR1, and 1Touch with interconnect caches), and the serial run's traffic traces
     * (numa2x2.cfg); caches of fewer sets than partitions take fewer partitions, said on standard error.
     */
    @Test
    void partitions_giveTheSameBytesAsASerialRun() throws IOException {
        assertEquals(0, CiatCommandTest.run("gen", "forkjoin", "-o", dir.toString(), "--name", "pp", "--threads",
                "4", "--instructions", "4000", "--shared", "0.3", "--shared-bytes", "8192").status());
        String set = dir.resolve("pp.4").toString();
        Path touch = Files.writeString(dir.resolve("touch.cfg"), "name = touch\nnodes = 2\nprocessors_per_node = 2\n"
                + "protocol = 5\npage_policy = 1Touch\ndata_cache = 4K 2 fifo\ninterconnect_cache = 64K 4 random\n");
        String[] cfgs = {"--config", config("dsm4.cfg").toString(), "--config", touch.toString()};
        CiatCommandTest.Run serial = CiatCommandTest.run(cat(new String[] {"cdat", set}, cfgs));
        assertEquals(0, serial.status(), serial.err());
        String dsm4 = Files.readString(Paths.get(set + ".dsm4.cdat_report"));
        String t = Files.readString(Paths.get(set + ".touch.cdat_report"));
        assertEquals(0, CiatCommandTest.run("cdat", "--json", dir.resolve("s.json").toString(), set, touch.toString())
                .status());
        for (String n : new String[] {"2", "3", "0"}) {
            CiatCommandTest.Run par = CiatCommandTest.run(cat(new String[] {"cdat", "--partitions", n, set}, cfgs));
            assertEquals(0, par.status(), par.err());
            assertEquals(serial.out(), par.out(), n);
            assertEquals(dsm4, Files.readString(Paths.get(set + ".dsm4.cdat_report")), n);
            assertEquals(t, Files.readString(Paths.get(set + ".touch.cdat_report")), n);
            assertEquals(0, CiatCommandTest.run("cdat", "--partitions", n, "--json", dir.resolve("p.json").toString(),
                    set, touch.toString()).status());
            assertEquals(Files.readString(dir.resolve("s.json")), Files.readString(dir.resolve("p.json")), n);
        }
        String[] kinds = {"cdat_report", "cdat_detailed", "cdat_general.0", "cdat_general.3"};
        assertEquals(0, CiatCommandTest.run("cdat", set, config("numa2x2.cfg").toString()).status());
        List<byte[]> want = new ArrayList<>();
        for (String k : kinds) {
            want.add(Files.readAllBytes(Paths.get(set + "." + k)));
        }
        CiatCommandTest.Run traces = CiatCommandTest.run("cdat", "--partitions", "3", set,
                config("numa2x2.cfg").toString());
        assertEquals(0, traces.status(), traces.err());
        for (int i = 0; i < kinds.length; i++) {
            byte[] got = Files.readAllBytes(Paths.get(set + "." + kinds[i]));
            assertEquals(-1L, java.util.Arrays.mismatch(want.get(i), got), kinds[i]);
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.filter(f -> f.getFileName().toString().startsWith(".")).toList(),
                    "the partitions' hidden parts are deleted after the merge");
        }
        Path full = Files.writeString(dir.resolve("full.cfg"), "instruction_cache = 4K full lru\n");
        assertEquals(0, CiatCommandTest.run("cdat", set, full.toString()).status());
        String fullSerial = Files.readString(Paths.get(set + ".cdat_report"));
        CiatCommandTest.Run one = CiatCommandTest.run("cdat", "--partitions", "4", set, full.toString());
        assertEquals(0, one.status(), one.err());
        assertTrue(one.err().contains("dsmscope: warning: cdat: --partitions 4: the smallest cache has 1 set, so 1"
                + " partition"), one.err());
        assertEquals(fullSerial, Files.readString(Paths.get(set + ".cdat_report")));
        assertEquals(2, CiatCommandTest.run("cdat", "--partitions", "1025", set, full.toString()).status());
    }

    /**
     * {@code --partitions 2} on a trace set that routes (no branch records) runs routed, each trace file read once,
     * and says so with {@code --progress}; {@code -Ddsmscope.partitions.mode=replays} runs one replay per
     * partition; both give the serial run's report, JSON, traffic traces and standard output, with 1Touch
     * placement, interconnect caches and traffic traces, and leave no hidden part.
     */
    @Test
    void partitions_runRouted_orOneReplayPerPartitionOnRequest_withTheSerialRunsBytes() throws IOException {
        assertEquals(0, CiatCommandTest.run("gen", "forkjoin", "-o", dir.toString(), "--name", "rt", "--threads",
                "4", "--instructions", "3000", "--shared", "0.3", "--shared-bytes", "16384").status());
        String set = dir.resolve("rt.4").toString();
        Path touch = Files.writeString(dir.resolve("touch.cfg"), "name = touch\nnodes = 2\nprocessors_per_node = 2\n"
                + "protocol = 6\npage_policy = 1Touch\ndata_cache = 4K 2 fifo\ninterconnect_cache = 64K 4 random\n"
                + "general_trace = 1\ndetailed_trace = 1\n");
        String[] args = {set, touch.toString(), "--json", dir.resolve("t.json").toString()};
        String[] kinds = {"cdat_report", "cdat_detailed", "cdat_general.0", "cdat_general.3"};
        CiatCommandTest.Run serial = CiatCommandTest.run(cat(new String[] {"cdat"}, args));
        assertEquals(0, serial.status(), serial.err());
        List<byte[]> want = new ArrayList<>();
        for (String k : kinds) {
            want.add(Files.readAllBytes(Paths.get(set + "." + k)));
        }
        want.add(Files.readAllBytes(dir.resolve("t.json")));
        for (String mode : new String[] {Replay.MODE_ROUTED, Replay.MODE_REPLAYS}) {
            if (mode.equals(Replay.MODE_REPLAYS)) {
                System.setProperty(CiatCommand.MODE_PROPERTY, Replay.MODE_REPLAYS);
            }
            CiatCommandTest.Run par;
            try {
                par = CiatCommandTest.run(cat(new String[] {"cdat", "--progress", "--partitions", "2"}, args));
            } finally {
                System.clearProperty(CiatCommand.MODE_PROPERTY);
            }
            assertEquals(0, par.status(), par.err());
            assertTrue(par.err().contains(mode.equals(Replay.MODE_ROUTED)
                    ? "cdat: 2 partitions, routed (each trace file read once)\n"
                    : "cdat: 2 partitions, one replay of the trace files per partition\n"), par.err());
            assertEquals(serial.out(), par.out(), mode);
            for (int i = 0; i < kinds.length; i++) {
                byte[] got = Files.readAllBytes(Paths.get(set + "." + kinds[i]));
                assertEquals(-1L, java.util.Arrays.mismatch(want.get(i), got), mode + " " + kinds[i]);
            }
            assertEquals(-1L, java.util.Arrays.mismatch(want.get(kinds.length),
                    Files.readAllBytes(dir.resolve("t.json"))), mode + " JSON");
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(List.of(), left.filter(f -> f.getFileName().toString().startsWith(".")).toList(), mode);
            }
        }
    }

    /**
     * An error the replay finds (not the prescan) in a partitioned run that routes: the same message, naming the
     * trace file and its byte offset, as the serial run's (the routed partition names the trace file's position
     * itself, replay/README.md "Partitioned replay"), exit status 2 and no report.
     */
    @Test
    void partitions_anErrorInARoutedRun_namesTheTraceFilesPosition_asTheSerialRun() throws IOException {
        for (int t = 0; t < 2; t++) {
            Path f = dir.resolve(TraceSet.fileName("bad", 2, t));
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic().endRecord(true))) {
                if (t == 0) {
                    w.call(CallType.SPAWN, 0, 1, 1, 1, 0, 0);
                }
                for (int i = 0; i < 500; i++) {
                    w.memory(i % 3 == 0 ? MemType.STORE : MemType.LOAD, 8, MemType.FIXED, 0x10000 + 64L * i + 8 * t);
                }
                if (t == 1) {
                    w.call(CallType.END_CRITICAL, 5, 6, 0x8000, 0, 0, 0); // a lock thread 1 never took
                } else {
                    w.call(CallType.JOIN, 7, 8, 0, 0, 0, 0);
                }
                w.finish();
            }
        }
        String set = dir.resolve("bad.2").toString();
        CiatCommandTest.Run serial = CiatCommandTest.run("cdat", set, config("dsm4.cfg").toString());
        assertEquals(2, serial.status(), serial.out() + serial.err());
        assertTrue(serial.err().contains("bad.2.1"), serial.err());
        CiatCommandTest.Run par = CiatCommandTest.run("cdat", "--partitions", "2", set, config("dsm4.cfg").toString());
        assertEquals(2, par.status(), par.out() + par.err());
        assertEquals(serial.err(), par.err());
        assertTrue(Files.notExists(Paths.get(set + ".cdat_report")));
    }

    private static String[] cat(String[] a, String[] b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /**
     * More than 4 GB of level 2 records (memory records alone) simulated on the fly under -Xmx512m, without trace
     * files. Long: {@code mvn -pl cli verify -Ddsmscope.longTests=true -Dtest=CdatCommandTest}.
     */
    @Test
    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "dsmscope.longTests", matches = "true")
    void toCdat_simulatesMoreThanFourGigabytesOfTraceInA512MegabyteHeap() throws IOException {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Path json = dir.resolve("big.json");
        String name = dir.resolve("big").toString();
        List<String> a = new ArrayList<>(List.of("trace", "--level", "2", "--type", "to_cdat", "--threads", "5",
                "--config", config("dsm4.cfg").toString(), "--cdat-options", "--json " + json, "-o", name, "--",
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Ddsmscope.jar=" + System.getProperty("java.class.path"), "-Xmx512m", "-cp",
                Paths.get("target", "test-classes").toAbsolutePath().toString(), LockHeavy.class.getName(), "4",
                "300000", "256"));
        long t0 = System.nanoTime();
        StringWriter err = new StringWriter();
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(0, cl.execute(a.toArray(new String[0])), err.toString());
        long s = (System.nanoTime() - t0) / 1_000_000_000L;
        JsonNode data = json(json).path("aggregate").path("streams").path("data");
        long bytes = 8 * (data.path("hits").asLong() + data.path("misses").asLong());
        System.out.println("on-the-fly CDAT of " + bytes + " bytes of memory records in " + s + " s");
        assertTrue(bytes >= 4_000_000_000L, "memory records: " + bytes + " bytes");
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("big.5.cdat_report", "big.json"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }
}
