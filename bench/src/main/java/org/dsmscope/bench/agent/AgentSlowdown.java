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
 * </pre>
 * The child class path is {@code bench/target/classes} (only the workload), never a jar holding agent classes.
 */
public final class AgentSlowdown {
    private static Path agent = Paths.get("agent/target/dsmscope-agent.jar");

    private AgentSlowdown() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        int n = 512;
        int p = 4;
        int repeat = 3;
        Path dir = Files.createTempDirectory("dsmscope-slowdown");
        String cp = Paths.get("bench/target/classes").toAbsolutePath().toString();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--n": n = Integer.parseInt(args[i + 1]); break;
                case "--threads": p = Integer.parseInt(args[i + 1]); break;
                case "--repeat": repeat = Integer.parseInt(args[i + 1]); break;
                case "--agent": agent = Paths.get(args[i + 1]); break;
                case "--dir": dir = Paths.get(args[i + 1]); break;
                case "--cp": cp = args[i + 1]; break;
                default: throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.printf("matrix multiply %dx%d, %d threads, best of %d runs, %d cores%n", n, n, p, repeat,
                Runtime.getRuntime().availableProcessors());
        double plain = best(repeat, null, cp, p, n, dir);
        System.out.printf(Locale.ROOT, "%-22s %8.2f s%n", "uninstrumented", plain);
        for (int level = 1; level <= 3; level++) {
            String name = dir.resolve("l" + level).toString();
            String opts = "level=" + level + ",name=" + name + ",quiet=true";
            double t = best(level == 1 ? repeat : 1, opts, cp, p, n, dir);
            long bytes = size(dir, "l" + level + "." + (p + 1) + ".");
            long mem = level == 1 ? 0 : memoryRecords(name + "." + (p + 1), p + 1);
            System.out.printf(Locale.ROOT, "level %d %14s %8.2f s  %6.1fx  trace %,d bytes%s%n", level, "", t,
                    t / plain, bytes, mem == 0 ? "" : String.format(Locale.ROOT, ", %,d memory accesses, %.2f bytes/access",
                            mem, (double) bytes / mem));
            deleteTraces(dir, "l" + level + ".");
        }
        String cname = dir.resolve("c2").toString();
        double tc = best(1, "level=2,type=compressed,name=" + cname + ",quiet=true", cp, p, n, dir);
        long cbytes = size(dir, "c2." + (p + 1) + ".");
        System.out.printf(Locale.ROOT, "level 2 compressed(zstd) %8.2f s  %6.1fx  trace %,d bytes%n", tc, tc / plain,
                cbytes);
        deleteTraces(dir, "c2.");
    }

    private static double best(int repeat, String agentOpts, String cp, int p, int n, Path dir)
            throws IOException, InterruptedException {
        double best = Double.MAX_VALUE;
        for (int r = 0; r < repeat; r++) {
            List<String> cmd = new ArrayList<>();
            cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
            if (agentOpts != null) {
                cmd.add("-javaagent:" + agent.toAbsolutePath() + "=" + agentOpts);
            }
            cmd.add("-cp");
            cmd.add(cp);
            cmd.add(MatMulWorkload.class.getName());
            cmd.add(Integer.toString(p));
            cmd.add(Integer.toString(n));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("out.txt").toFile());
            long t0 = System.nanoTime();
            Process proc = pb.start();
            if (!proc.waitFor(1, TimeUnit.HOURS) || proc.exitValue() != 0) {
                throw new IllegalStateException("run failed: " + Files.readString(dir.resolve("out.txt")));
            }
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
        }
        return best;
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
