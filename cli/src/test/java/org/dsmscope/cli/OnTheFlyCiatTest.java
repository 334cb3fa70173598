package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dsmscope.tracedprog.LockHeavy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end tests of on-the-fly CIAT ({@code dsmscope trace --type to_ciat}, seed 000 §2 and §4): the traced JVM
 * finds the analysis sink on the class path it is given (the test's own, standing for dsmscope.jar) and writes
 * the CIAT report itself. The 4 GB run is long: {@code mvn -pl cli verify -Ddsmscope.longTests=true
 * -Dtest=OnTheFlyCiatTest}.
 */
class OnTheFlyCiatTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int trace(List<String> jvm, String ciatOptions, String name, String... progArgs) {
        return traceWith(List.of(), jvm, ciatOptions, name, LockHeavy.class.getName(), progArgs);
    }

    private int traceWith(List<String> opts, List<String> jvm, String ciatOptions, String name, String main,
            String... progArgs) {
        List<String> a = new ArrayList<>(List.of("trace", "--level", "2", "--type", "to_ciat", "-o", name));
        a.addAll(opts);
        if (ciatOptions != null) {
            a.add("--ciat-options");
            a.add(ciatOptions);
        }
        a.add("--");
        a.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        a.add("-Ddsmscope.jar=" + System.getProperty("java.class.path"));
        a.addAll(jvm);
        a.add("-cp");
        a.add(Paths.get("target", "test-classes").toAbsolutePath().toString());
        a.add(main);
        a.addAll(List.of(progArgs));
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(a.toArray(new String[0]));
    }

    private List<String> filesIn(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void toCiat_writesTheSameReportMemoryFileAndJsonAsDsmscopeCiatOnTheSameRecords() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Path json = dir.resolve("fly.json");
        String name = dir.resolve("fly").toString();
        int status = trace(List.of("-Ddsmscope.spill.keep=true"), "--json " + json, name, "2", "2000", "64");
        assertEquals(0, status, err.toString());
        assertTrue(err.toString().isEmpty(), err.toString());
        // The records the analysis saw, kept as fly.3.t: analyse them offline under another name.
        Path off = keptRecords(name, 3);
        Path offJson = off.resolve("x.json");
        assertEquals(0, Main.run("ciat", "--json", offJson.toString(), off.resolve("x.3").toString()));
        assertEquals(-1L, Files.mismatch(Paths.get(name + ".3.ciat_report"), off.resolve("x.3.ciat_report")));
        assertEquals(-1L, Files.mismatch(Paths.get(name + ".3.memory"), off.resolve("x.3.memory")));
        assertEquals(-1L, Files.mismatch(json, offJson));
        JsonNode acc = new ObjectMapper().readTree(json.toFile()).path("aggregate").path("accesses");
        assertTrue(acc.path("loads").asLong() > 2 * 2000 * 64, acc.toString());
    }

    /** A run with the thread count, so the analysis runs while the program runs; the records kept as NAME.p.t. */
    /**
     * Live partitions deal the pages after this many accesses (default 2^24): every partitioned run here passes
     * that point, so the results below also hold for state kept before the plan and pages that change hands.
     */
    private static final int PLAN_AT = 50_000;

    private Process live(String name, int p, String budget, String main, String... progArgs) throws Exception {
        return liveWith(null, name, p, budget, main, progArgs);
    }

    /** {@link #live} with {@code CIAT_OPTIONS} (null: none). */
    private Process liveWith(String ciatOptions, String name, int p, String budget, String main, String... progArgs)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xbootclasspath/a:" + TraceCommand.findAgentJar().toAbsolutePath(),
                "-Ddsmscope.jar=" + System.getProperty("java.class.path"), "-Ddsmscope.spill.keep=true",
                "-Ddsmscope.live.budget=" + budget, "-Ddsmscope.live.planAt=" + PLAN_AT,
                "-javaagent:" + TraceCommand.findAgentJar().toAbsolutePath() + "=level=2,type=to_ciat,threads=" + p
                        + ",name=" + name,
                "-cp", Paths.get("target", "test-classes").toAbsolutePath().toString(), main));
        cmd.addAll(List.of(progArgs));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.PIPE);
        pb.environment().remove("CIAT_OPTIONS");
        if (ciatOptions != null) {
            pb.environment().put("CIAT_OPTIONS", ciatOptions);
        }
        return pb.start();
    }

    /** Copies the kept records of run {@code name} (p threads) into a new directory as x.p.t; returns it. */
    private Path keptRecords(String name, int p) throws Exception {
        Path off = Files.createDirectory(dir.resolve("off-" + Paths.get(name).getFileName()));
        for (int t = 0; t < p; t++) {
            Files.copy(Paths.get(name + "." + p + "." + t), off.resolve("x." + p + "." + t));
        }
        return off;
    }

    /** Runs {@code dsmscope ciat} on the kept records of run {@code name} (p threads) and compares the results. */
    private void sameAsOffline(String name, int p) throws Exception {
        Path off = keptRecords(name, p);
        assertEquals(0, Main.run("ciat", off.resolve("x." + p).toString()));
        assertEquals(-1L, Files.mismatch(Paths.get(name + "." + p + ".ciat_report"), off.resolve("x." + p + ".ciat_report")));
        assertEquals(-1L, Files.mismatch(Paths.get(name + "." + p + ".memory"), off.resolve("x." + p + ".memory")));
    }

    private static String[] finish(Process pr) throws Exception {
        String out = new String(pr.getInputStream().readAllBytes());
        String errs = new String(pr.getErrorStream().readAllBytes());
        assertTrue(pr.waitFor(300, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, pr.exitValue(), out + errs);
        return new String[] {out, errs};
    }

    @Test
    void toCiatWithPartitions_analysesOnWorkerThreadsWhileTheProgramRuns_sameResultsAsSerialDsmscopeCiat()
            throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Path json = dir.resolve("par.json");
        String name = dir.resolve("par").toString();
        int status = traceWith(List.of("--threads", "3"),
                List.of("-Ddsmscope.spill.keep=true", "-Ddsmscope.live.planAt=" + PLAN_AT),
                "--partitions 2 -ciat_events --json " + json, name, LockHeavy.class.getName(), "2", "2000", "64");
        assertEquals(0, status, err.toString());
        assertTrue(err.toString().isEmpty(), err.toString());
        // the analysis's worker threads are the agent's own: traced, they would have added traces (or hung)
        assertEquals(List.of("par.3.0", "par.3.1", "par.3.2", "par.3.ciat_events", "par.3.ciat_report",
                "par.3.memory", "par.json"), filesIn(dir).stream().filter(f -> f.startsWith("par")).toList());
        Path off = keptRecords(name, 3);
        Path offJson = off.resolve("x.json");
        assertEquals(0, Main.run("ciat", "-ciat_events", "--json", offJson.toString(), off.resolve("x.3").toString()));
        for (String ext : new String[] {".ciat_report", ".memory", ".ciat_events"}) {
            assertEquals(-1L, Files.mismatch(Paths.get(name + ".3" + ext), off.resolve("x.3" + ext)), ext);
        }
        assertEquals(-1L, Files.mismatch(json, offJson));
    }

    /**
     * Routed on the fly: one reader of each thread's stream, routed by address into 2 and 3 partitions (the pages
     * dealt by the live plan mid-run): the bytes of dsmscope ciat on the run's records, report, memory file, event
     * trace and JSON, and the run says it routed.
     */
    @Test
    void toCiatWithPartitions_routesOneReaderOfEachStream_sameBytesAsDsmscopeCiatOnTheRecords() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        for (int parts : new int[] {2, 3}) {
            String name = dir.resolve("routed" + parts).toString();
            Path json = dir.resolve("routed" + parts + ".json");
            String[] r = finish(liveWith("--partitions " + parts + " --progress -ciat_events --json " + json, name, 3,
                    "67108864", LockHeavy.class.getName(), "2", "2000", "64"));
            assertTrue(r[1].contains("to_ciat: " + parts + " partitions, routed (each thread's stream read once)"),
                    r[1]);
            Path off = keptRecords(name, 3);
            Path offJson = off.resolve("x.json");
            assertEquals(0, Main.run("ciat", "-ciat_events", "--json", offJson.toString(),
                    off.resolve("x.3").toString()));
            for (String ext : new String[] {".ciat_report", ".memory", ".ciat_events"}) {
                assertEquals(-1L, Files.mismatch(Paths.get(name + ".3" + ext), off.resolve("x.3" + ext)),
                        parts + " partitions: " + ext);
            }
            assertEquals(-1L, Files.mismatch(json, offJson), parts + " partitions: JSON");
        }
    }

    /** The agent asks for one reader where the partitions route, one per partition where they cannot. */
    @Test
    void liveReaders_oneWhereThePartitionsRoute_onePerPartitionForLevel3AndSkipping() {
        OnTheFlyCiat sink = new OnTheFlyCiat();
        assertEquals(1, sink.liveReaders("to_ciat", List.of(), 2), "serial");
        assertEquals(1, sink.liveReaders("to_ciat", List.of("--partitions", "3"), 2), "routed");
        assertEquals(3, sink.liveReaders("to_ciat", List.of("--partitions", "3"), 3), "level 3: branch records");
        assertEquals(3, sink.liveReaders("to_ciat", List.of("--partitions", "3", "--skip-bad-records"), 1),
                "skipping bad records");
        OnTheFlyCdat cdat = new OnTheFlyCdat();
        Path cfg = CdatCommandTest.config("numa2x2.cfg").toAbsolutePath();
        assertEquals(1, cdat.liveReaders("to_cdat", List.of("--partitions", "2", "--config", cfg.toString()), 2));
        assertEquals(2, cdat.liveReaders("to_cdat", List.of("--partitions", "2", "--config", cfg.toString()), 3));
    }

    @Test
    void toCiatWithTheThreadCount_analysesWhileTheProgramRuns_andWritesTheSameResultsAsDsmscopeCiat()
            throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Path json = dir.resolve("live.json");
        String name = dir.resolve("live").toString();
        int status = traceWith(List.of("--threads", "3"), List.of("-Ddsmscope.spill.keep=true"), "--json " + json, name,
                LockHeavy.class.getName(), "2", "2000", "64");
        assertEquals(0, status, err.toString());
        Path off = keptRecords(name, 3);
        Path offJson = off.resolve("x.json");
        assertEquals(0, Main.run("ciat", "--json", offJson.toString(), off.resolve("x.3").toString()));
        assertEquals(-1L, Files.mismatch(Paths.get(name + ".3.ciat_report"), off.resolve("x.3.ciat_report")));
        assertEquals(-1L, Files.mismatch(Paths.get(name + ".3.memory"), off.resolve("x.3.memory")));
        assertEquals(-1L, Files.mismatch(json, offJson));
    }

    @Test
    void aBudgetOfZero_spillsEveryChunkToDisk_andChangesNoResult() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve("spill").toString();
        String[] r = finish(live(name, 5, "0", LockHeavy.class.getName(), "4", "1000", "256"));
        assertTrue(r[1].contains("analysed while the program ran; ") && r[1].contains("spilled to disk"), r[1]);
        sameAsOffline(name, 5);
        try (Stream<Path> s = Files.list(dir)) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().startsWith(".dsmscope-live")), "spill left behind");
        }
    }

    @Test
    void aForkJoinRun_farBeyondTheBudget_isAnalysedWhileItRuns_theWorkersWaitForTheAnalysisInsteadOfSpilling()
            throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve("fj").toString();
        // main waits in its joins: its join hints let both partitions replay the workers while they run, and the
        // workers, far ahead, wait for the analysis (backpressure) instead of spilling
        String[] r = finish(liveWith("--partitions 2", name, 3, Integer.toString(2 << 20),
                org.dsmscope.tracedprog.ForkJoinSweep.class.getName(), "2", "200000", "12"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) bytes of records spilled").matcher(r[1]);
        long spilled = m.find() ? Long.parseLong(m.group(1)) : 0;
        // at least two loads and a store per element and round, 8 bytes each
        long total = 3L * 8 * 200000 * 12;
        assertTrue(spilled < total / 4, "spilled " + spilled + " of more than " + total + " bytes: " + r[1]);
        Path off = keptRecords(name, 3);
        Path offJson = off.resolve("x.json");
        assertEquals(0, Main.run("ciat", "--json", offJson.toString(), off.resolve("x.3").toString()));
        JsonNode acc = new ObjectMapper().readTree(offJson.toFile()).path("aggregate").path("accesses");
        assertTrue(acc.path("loads").asLong() + acc.path("stores").asLong() >= 3L * 200000 * 12, acc.toString());
        assertEquals(-1L, Files.mismatch(Paths.get(name + ".3.ciat_report"), off.resolve("x.3.ciat_report")));
        assertEquals(-1L, Files.mismatch(Paths.get(name + ".3.memory"), off.resolve("x.3.memory")));
    }

    @Test
    void partitionsWithABudgetOfZero_eachReplayTheSpilledRecords_sameResultsAsSerialOffline_noSpillLeft()
            throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve("pspill").toString();
        // three partitions, each replaying every thread's records from the spill (every chunk spills)
        String[] r = finish(liveWith("--partitions 3", name, 5, "0", LockHeavy.class.getName(), "4", "1000", "256"));
        assertTrue(r[1].contains("analysed while the program ran; ") && r[1].contains("spilled to disk"), r[1]);
        sameAsOffline(name, 5);
        try (Stream<Path> s = Files.list(dir)) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().startsWith(".dsmscope-live")), "spill left behind");
        }
    }

    @Test
    void aThreadBlockedInUntracedCode_doesNotStopTheAnalysis_whileOthersRun() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve("blocked").toString();
        // A: 6000 steps (96 KB of records, less than one buffer) then BlockingQueue.take(); B: 200,000 steps. The
        // program ends only after the analysis read 150 KiB: possible only if A's records were handed over while A
        // was blocked (the timer), since the replay cannot pass A's clock without them.
        String[] r = finish(live(name, 3, "67108864", "org.dsmscope.tracedprog.BlockedWorker", "6000", "200000", "150"));
        assertTrue(r[0].contains("BlockedWorker check"), r[0] + r[1]);
        sameAsOffline(name, 3);
    }

    @Test
    void toCiat_leavesOnlyTheResults_andRunsFiftyMegabytesOfTraceInA64MegabyteHeap() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve("small").toString();
        // 4 workers (5 traced threads with main) x 3000 rounds x (256 load-store pairs + a critical section): about 50 MB of level 2 records.
        int status = trace(List.of("-Xmx64m"), null, name, "4", "3000", "256");
        assertEquals(0, status, err.toString());
        assertTrue(err.toString().isEmpty(), err.toString());
        assertEquals(List.of("small.5.ciat_report", "small.5.memory"), filesIn(dir));
        String report = Files.readString(dir.resolve("small.5.ciat_report"));
        assertTrue(report.contains("critical"), report.substring(0, Math.min(400, report.length())));
    }

    @Test
    void badCiatOptions_stopBeforeTheProgramRuns_withStatus2() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        int status = trace(List.of(), "--age-scope sideways", dir.resolve("bad").toString(), "2", "10", "1");
        assertEquals(2, status);
        assertTrue(err.toString().contains("--ciat-options: option --age-scope"), err.toString());
        assertEquals(List.of(), filesIn(dir));
    }

    @Test
    void aNegativeLivePlanAt_isRefusedBeforeTheProgramRuns_withStatus2() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        int status = traceWith(List.of("--threads", "3"), List.of("-Ddsmscope.live.planAt=-5"), "--partitions 2",
                dir.resolve("neg").toString(), LockHeavy.class.getName(), "2", "10", "1");
        assertEquals(2, status, err.toString());
        assertEquals(List.of(), filesIn(dir));
    }

    /** More than 4 GB of level 2 records (memory records alone) under -Xmx512m, analysed without trace files. */
    @Test
    @EnabledIfSystemProperty(named = "dsmscope.longTests", matches = "true")
    void toCiat_analysesMoreThanFourGigabytesOfTraceInA512MegabyteHeap() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Path json = dir.resolve("big.json");
        long t0 = System.nanoTime();
        // With the thread count: analysed while the program runs (in memory, spilling beyond the budget).
        int status = traceWith(List.of("--threads", "5"), List.of("-Xmx512m"), "--json " + json,
                dir.resolve("big").toString(), LockHeavy.class.getName(), "4", "300000", "256");
        long s = (System.nanoTime() - t0) / 1_000_000_000L;
        assertEquals(0, status, err.toString());
        JsonNode acc = new ObjectMapper().readTree(json.toFile()).path("aggregate").path("accesses");
        long bytes = 8 * (acc.path("loads").asLong() + acc.path("stores").asLong());
        System.out.println("on-the-fly CIAT of " + bytes + " bytes of memory records in " + s + " s");
        assertTrue(bytes >= 4_000_000_000L, "memory records: " + bytes + " bytes");
        assertEquals(List.of("big.5.ciat_report", "big.5.memory", "big.json"), filesIn(dir));
    }
}
