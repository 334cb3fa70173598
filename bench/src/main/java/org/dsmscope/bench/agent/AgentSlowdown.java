package org.dsmscope.bench.agent;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * Timed harness (not JMH, never run by mvn verify) for the agent's overhead (issue 3, SPEC §11): whole-process
 * wall time of {@link MatMulWorkload} uninstrumented and under the agent at levels 1, 2 and 3, measured in the same
 * sitting, plus trace bytes per memory access and the compressed size.
 *
 * <pre>
 *   java -cp bench/target/classes:trace/target/classes:$ZSTD:$LZ4 org.dsmscope.bench.agent.AgentSlowdown \
 *        [--n 512] [--threads 4] [--repeat 3] [--agent agent/target/dsmscope-agent.jar] [--dir /tmp/x]
 *        [--to-ciat cli/target/dsmscope.jar [--at-exit true] [--ciat-options "--partitions 2"]]
 * </pre>
 * With {@code --to-ciat JAR} it measures only the uninstrumented run and on-the-fly CIAT at level 2 (seed 000 §2
 * {@code to_ciat}, the analysis sink loaded from JAR; report and memory file written into the run directory): with
 * the thread count given to the agent, so the analysis runs while the program runs; {@code --at-exit true} leaves
 * it out (the analysis runs at the end of the run, on spilled streams); {@code --ciat-options} passes options of
 * {@code dsmscope ciat} to the analysis ({@code CIAT_OPTIONS}).
 * The child class path is {@code bench/target/classes} (only the workload), never a jar holding agent classes.
 */
public final class AgentSlowdown {
    private static Path agent = Paths.get("agent/target/dsmscope-agent.jar");
    private static final List<String> JVM = new ArrayList<>();
    private static String ciatOptions;

    private AgentSlowdown() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        int n = 512;
        int p = 4;
        int repeat = 3;
        Path dir = Files.createTempDirectory("dsmscope-slowdown");
        String cp = Paths.get("bench/target/classes").toAbsolutePath().toString();
        String toCiat = null;
        boolean atExit = false;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--n": n = Integer.parseInt(args[i + 1]); break;
                case "--threads": p = Integer.parseInt(args[i + 1]); break;
                case "--repeat": repeat = Integer.parseInt(args[i + 1]); break;
                case "--agent": agent = Paths.get(args[i + 1]); break;
                case "--dir": dir = Paths.get(args[i + 1]); break;
                case "--cp": cp = args[i + 1]; break;
                case "--to-ciat": toCiat = Paths.get(args[i + 1]).toAbsolutePath().toString(); break;
                case "--at-exit": atExit = Boolean.parseBoolean(args[i + 1]); break;
                case "--ciat-options": ciatOptions = args[i + 1]; break;
                default: throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.printf("matrix multiply %dx%d, %d threads, best of %d runs, %d cores; wall s (cpu s = user+sys)%n",
                n, n, p, repeat, Runtime.getRuntime().availableProcessors());
        double[] plain = {Double.MAX_VALUE, Double.MAX_VALUE};
        if (toCiat != null) {
            for (int r = 0; r < repeat; r++) {
                min(plain, run(null, cp, p, n, dir));
            }
            JVM.add("-Ddsmscope.jar=" + toCiat);
            String name = dir.resolve("fly").toString();
            double[] fly = run("level=2,type=to_ciat,name=" + name + ",quiet=true"
                    + (atExit ? "" : ",threads=" + (p + 1)), cp, p, n, dir);
            line("uninstrumented", plain, plain, "");
            line(atExit ? "level 2 to_ciat, at exit" : "level 2 to_ciat, live", fly, plain, "report " + name + "." + (p + 1) + ".ciat_report");
            return;
        }
        double[] l1 = {Double.MAX_VALUE, Double.MAX_VALUE};
        String l1name = dir.resolve("l1").toString();
        for (int r = 0; r < repeat; r++) {
            min(plain, run(null, cp, p, n, dir));
            min(l1, run("level=1,name=" + l1name + ",quiet=true", cp, p, n, dir));
        }
        long l1bytes = size(dir, "l1." + (p + 1) + ".");
        deleteTraces(dir, "l1.");
        double[][] res = new double[4][];
        long[] bytes = new long[4];
        long[] mem = new long[4];
        String[] opts = {null, null, "level=2", "level=3"};
        for (int level = 2; level <= 3; level++) {
            String name = dir.resolve("l" + level).toString();
            res[level] = run(opts[level] + ",name=" + name + ",quiet=true", cp, p, n, dir);
            bytes[level] = size(dir, "l" + level + "." + (p + 1) + ".");
            mem[level] = memoryRecords(name + "." + (p + 1), p + 1);
            deleteTraces(dir, "l" + level + ".");
        }
        String cname = dir.resolve("c2").toString();
        double[] comp = run("level=2,type=compressed,name=" + cname + ",quiet=true", cp, p, n, dir);
        long cbytes = size(dir, "c2." + (p + 1) + ".");
        deleteTraces(dir, "c2.");
        min(plain, run(null, cp, p, n, dir));
        line("uninstrumented", plain, plain, "");
        line("level 1", l1, plain, String.format(Locale.ROOT, "trace %,d bytes", l1bytes));
        for (int level = 2; level <= 3; level++) {
            line("level " + level, res[level], plain, String.format(Locale.ROOT,
                    "trace %,d bytes, %,d memory accesses, %.2f bytes/access", bytes[level], mem[level],
                    (double) bytes[level] / mem[level]));
        }
        line("level 2 compressed", comp, plain, String.format(Locale.ROOT, "trace %,d bytes (zstd), %.2f bytes/access",
                cbytes, (double) cbytes / mem[2]));
    }

    private static void min(double[] best, double[] t) {
        best[0] = Math.min(best[0], t[0]);
        best[1] = Math.min(best[1], t[1]);
    }

    private static void line(String what, double[] t, double[] plain, String extra) {
        System.out.printf(Locale.ROOT, "%-20s wall %7.2f s %6.1fx   cpu %7.2f s %6.1fx   %s%n", what, t[0],
                t[0] / plain[0], t[1], t[1] / plain[1], extra);
    }

    /** One run: {wall seconds, cpu seconds (NaN if /usr/bin/time is missing)}. */
    private static double[] run(String agentOpts, String cp, int p, int n, Path dir)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        Path times = dir.resolve("time.txt");
        boolean timed = Files.isExecutable(Paths.get("/usr/bin/time"));
        if (timed) {
            cmd.add("/usr/bin/time");
            cmd.add("-f");
            cmd.add("%U %S");
            cmd.add("-o");
            cmd.add(times.toString());
        }
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        if (agentOpts != null) {
            cmd.add("-Xbootclasspath/a:" + agent.toAbsolutePath());
            cmd.addAll(JVM);
            cmd.add("-javaagent:" + agent.toAbsolutePath() + "=" + agentOpts);
        }
        cmd.add("-cp");
        cmd.add(cp);
        cmd.add(MatMulWorkload.class.getName());
        cmd.add(Integer.toString(p));
        cmd.add(Integer.toString(n));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.txt").toFile());
        if (agentOpts != null && ciatOptions != null) {
            pb.environment().put("CIAT_OPTIONS", ciatOptions);
        }
        long t0 = System.nanoTime();
        Process proc = pb.start();
        if (!proc.waitFor(1, TimeUnit.HOURS) || proc.exitValue() != 0) {
            throw new IllegalStateException("run failed: " + Files.readString(dir.resolve("out.txt")));
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpu = Double.NaN;
        if (timed) {
            String[] f = Files.readString(times).trim().split("\\s+");
            cpu = Double.parseDouble(f[f.length - 2]) + Double.parseDouble(f[f.length - 1]);
        }
        return new double[] {wall, cpu};
    }

    private static long size(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith(prefix)
                    && f.getFileName().toString().substring(prefix.length()).matches("\\d+"))
                    .mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static long memoryRecords(String set, int files) throws IOException {
        long m = 0;
        for (int t = 0; t < files; t++) {
            try (TraceReader r = TraceReader.open(Paths.get(set + "." + t))) {
                for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                    if (k == RecordKind.MEMORY) {
                        m++;
                    }
                }
            }
        }
        return m;
    }

    private static void deleteTraces(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : (Iterable<Path>) s::iterator) {
                if (f.getFileName().toString().startsWith(prefix)) {
                    Files.delete(f);
                }
            }
        }
        new File(dir.toFile(), "out.txt").delete();
    }
}
