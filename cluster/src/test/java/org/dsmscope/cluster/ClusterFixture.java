package org.dsmscope.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.cdat.Cdat;
import org.dsmscope.cdat.CdatOptions;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.TraceSet;

/** Trace sets, serial reference runs and cluster command runs shared by the cluster tests. */
final class ClusterFixture {
    private ClusterFixture() {
    }

    /** A CDAT configuration without traffic traces, with interconnect caches and first-touch placement. */
    static final String CONFIG = "dsmscope-cdat-config 1\nname = numa\nnodes = 2\nprocessors_per_node = 2\n"
            + "line_size = 64\nprotocol = 5\npage_policy = 1Touch\ndata_cache = 8K 2 lru\n"
            + "instruction_cache = 8K 2 lru\ninterconnect_cache = 64K 4 lru\n";

    /** A fork-join trace set of 4 threads in {@code dir} ({@code fj.4}). */
    static TraceSet forkJoin(Path dir, long instructions) {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 4;
        p.instructions = instructions;
        p.sharedBytes = 64 << 10;
        p.privateBytes = 32 << 10;
        p.lockRate = 0.01;
        return ForkJoinGen.write(dir, "fj", p);
    }

    /** A process trace set of 5 processes in {@code dir} ({@code ps.5}), for {@code -i 2}. */
    static TraceSet processes(Path dir) {
        ProcessGen.Params g = new ProcessGen.Params();
        g.processes = 5;
        g.slices = 20;
        g.sliceInstructions = 300;
        g.poolBytes = 64 << 10;
        g.ioBytes = 4096;
        return ProcessGen.write(dir, "ps", g);
    }

    /** Copies the files of {@code dir} into a new folder {@code to}. */
    static Path copy(Path dir, Path to) throws IOException {
        Files.createDirectories(to);
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }

    /** The serial CIAT run of {@code set} ({@code dsmscope ciat}'s outputs beside it), JSON to {@code json}. */
    static void serialCiat(TraceSet set, ReplayOptions ro, Path json) {
        CiatOptions co = new CiatOptions();
        co.json = json;
        co.events = true;
        new Replay(set, null, ro).add(new Ciat(co)).run();
    }

    /** The serial CDAT run of {@code set} with {@code cfg}, JSON to {@code json}. */
    static void serialCdat(TraceSet set, ReplayOptions ro, Path cfg, Path json) {
        CdatOptions o = new CdatOptions();
        o.json = json;
        new Replay(set, null, ro).add(new Cdat(CdatConfig.parse(cfg), o)).run();
    }

    /** What a cluster command printed and returned. */
    record Run(int status, String out, String err) {
    }

    /** Runs the cluster command line {@code args} in this JVM. */
    static Run cluster(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = ClusterMain.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(status, out.toString(), err.toString());
    }

    /** The arguments {@code head}, then the settings that keep a test's Spark small, then {@code tail}. */
    static String[] args(List<String> head, String... tail) {
        List<String> a = new ArrayList<>(head);
        a.addAll(List.of("--conf", "spark.ui.enabled=false", "--conf", "spark.driver.host=127.0.0.1",
                "--conf", "spark.driver.bindAddress=127.0.0.1"));
        a.addAll(List.of(tail));
        return a.toArray(new String[0]);
    }

    /** Asserts that every named file has the same bytes in {@code want} and {@code got}. */
    /**
     * The 4-thread fork-join trace set (30,000 instructions a thread) analysed serially in {@code tmp/serial} and by
     * {@code cluster ciat --master local[2] --partitions 3 -ciat_events --json} on a copy in {@code tmp/cluster};
     * checks that the cluster run succeeded and wrote the serial run's report, memory file, events and JSON; returns
     * the serial trace set and the cluster run.
     */
    static LocalCiat localCiatMatchesSerial(Path tmp) throws IOException {
        Path a = tmp.resolve("serial");
        Files.createDirectories(a);
        TraceSet set = forkJoin(a, 30_000);
        Path b = copy(a, tmp.resolve("cluster"));
        serialCiat(set, new ReplayOptions(), a.resolve("r.json"));
        Run r = cluster(args(List.of("ciat", "--master", "local[2]", "--partitions", "3",
                "-ciat_events", "--json", b.resolve("r.json").toString()), b.resolve("fj.4").toString()));
        ok(r);
        sameFiles(a, b, "fj.4.ciat_report", "fj.4.memory", "fj.4.ciat_events", "r.json");
        return new LocalCiat(set, r);
    }

    /** What {@link #localCiatMatchesSerial} ran: the serial trace set and the cluster command's run. */
    record LocalCiat(TraceSet set, Run run) {
    }

    static void sameFiles(Path want, Path got, String... names) throws IOException {
        for (String n : names) {
            assertArrayEquals(Files.readAllBytes(want.resolve(n)), Files.readAllBytes(got.resolve(n)), n);
        }
    }

    /** Asserts a run's success, showing its output otherwise. */
    static void ok(Run r) {
        assertEquals(0, r.status(), () -> "exit status; out:\n" + r.out() + "\nerr:\n" + r.err());
    }
}
