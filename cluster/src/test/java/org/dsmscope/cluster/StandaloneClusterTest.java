package org.dsmscope.cluster;

import static org.dsmscope.cluster.ClusterFixture.args;
import static org.dsmscope.cluster.ClusterFixture.cluster;
import static org.dsmscope.cluster.ClusterFixture.ok;
import static org.dsmscope.cluster.ClusterFixture.sameFiles;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real standalone Spark cluster on 127.0.0.1: a master and two workers in JVMs of their own, each worker launching
 * its executor JVM (the test class path as the executors' class path, a bare SPARK_HOME). What the analysis computes
 * crosses processes only as Spark ships it (the plan, CIAT's shuffled routed streams, the partitions' values), so
 * equal outputs show that nothing relies on memory shared between tasks; a killed executor's task is retried (for
 * CIAT a reduce task, whose executor's shuffle blocks are lost with it) and the outputs stay the same.
 */
class StandaloneClusterTest {
    @TempDir
    static Path home;
    private static final List<Process> JVMS = new ArrayList<>();
    private static String master;
    private static String classPath;

    @BeforeAll
    static void startMasterAndTwoWorkers() throws Exception {
        classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Files.createDirectories(home.resolve("spark/jars"));
        int port = freePort();
        int ui = freePort();
        master = "spark://127.0.0.1:" + port;
        try {
            JVMS.add(jvm("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
                    String.valueOf(port), "--webui-port", String.valueOf(ui)));
            for (int w = 0; w < 2; w++) {
                Path work = Files.createDirectories(home.resolve("work" + w));
                JVMS.add(jvm("worker" + w, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                        "--port", String.valueOf(freePort()), "--webui-port", String.valueOf(freePort()), "--cores",
                        "1", "--memory", "1g", "--work-dir", work.toString(), master));
            }
            awaitWorkers(ui, 2);
        } catch (Exception | Error e) {
            stopAll();
            throw e;
        }
    }

    @AfterAll
    static void stopAll() {
        for (Process p : JVMS) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : JVMS) {
            try {
                if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        JVMS.clear();
    }

    @Test
    void ciatShuffledOnTwoWorkers_withAReduceExecutorKilled_writesTheSerialRunsOutputs() throws Exception {
        Path a = Files.createDirectories(home.resolve("ciat-serial"));
        TraceSet set = ClusterFixture.forkJoin(a, 20_000);
        Path b = ClusterFixture.copy(a, home.resolve("ciat-cluster"));
        ClusterFixture.serialCiat(set, new ReplayOptions(), a.resolve("r.json"));
        ClusterFixture.Run r = cluster(submit(List.of("ciat", "--conf", SparkRun.HALT_PARTITION + "=1",
                "-ciat_events", "--json", b.resolve("r.json").toString()), b.resolve("fj.4").toString()));
        ok(r);
        assertTrue(r.err().contains("records shuffled by address partition: 4 trace files read once"), r.err());
        sameFiles(a, b, "fj.4.ciat_report", "fj.4.memory", "fj.4.ciat_events", "r.json");
    }

    @Test
    void cdatWithAnExecutorKilledMidRun_isRetriedAndWritesTheSerialRunsOutputs() throws Exception {
        Path a = Files.createDirectories(home.resolve("cdat-serial"));
        TraceSet set = ClusterFixture.forkJoin(a, 20_000);
        Path cfg = home.resolve("numa.cfg");
        Files.writeString(cfg, ClusterFixture.CONFIG);
        Path b = ClusterFixture.copy(a, home.resolve("cdat-cluster"));
        ClusterFixture.serialCdat(set, new ReplayOptions(), cfg, a.resolve("r.json"));
        ClusterFixture.Run r = cluster(submit(List.of("cdat", "--conf", SparkRun.HALT_PARTITION + "=1", "--json",
                b.resolve("r.json").toString()), b.resolve("fj.4").toString(), cfg.toString()));
        ok(r);
        sameFiles(a, b, "fj.4.cdat_report", "r.json");
    }

    /** The command line submitting {@code head} ... {@code traces} to the standalone cluster, two partitions. */
    private static String[] submit(List<String> head, String... traces) {
        List<String> h = new ArrayList<>(head);
        h.addAll(List.of("--master", master, "--partitions", "2", "--conf", "spark.executor.memory=512m",
                "--conf", "spark.executor.extraClassPath=" + classPath, "--conf", "spark.task.maxFailures=2"));
        return args(h, traces);
    }

    /** Starts {@code main} in a JVM of its own with the test class path, its output in {@code name.log}. */
    private static Process jvm(String name, String main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", classPath));
        cmd.addAll(List.of(System.getProperty("spark.opens", "").split(" ")));
        cmd.add(main);
        cmd.addAll(List.of(args));
        cmd.removeIf(String::isEmpty);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(home.resolve(name + ".log").toFile());
        pb.environment().put("SPARK_HOME", home.resolve("spark").toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().put("SPARK_LOCAL_DIRS", home.resolve("local").toString());
        return pb.start();
    }

    /** Waits until the master's status page counts {@code n} alive workers (at most four minutes: a loaded machine). */
    private static void awaitWorkers(int ui, int n) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long until = System.nanoTime() + Duration.ofSeconds(240).toNanos();
        String last = "";
        while (System.nanoTime() < until) {
            for (Process p : JVMS) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("a Spark JVM ended: " + logs());
                }
            }
            try {
                last = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ui + "/json/")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                if (last.replace(" ", "").contains("\"aliveworkers\":" + n)) {
                    return;
                }
            } catch (IOException e) {
                // the master is still starting
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("workers did not register: " + last + "\n" + logs());
    }

    private static String logs() throws IOException {
        StringBuilder s = new StringBuilder();
        try (var files = Files.list(home)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (f.toString().endsWith(".log")) {
                    s.append(f.getFileName()).append(":\n").append(Files.readString(f)).append(File.separator);
                }
            }
        }
        return s.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
