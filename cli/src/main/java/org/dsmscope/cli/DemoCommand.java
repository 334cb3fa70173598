package org.dsmscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dsmscope.cdat.config.CdatConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dsmscope demo}: traces the bundled matrix multiply and red-black SOR examples with the agent, runs CIAT
 * on the traces and prints the main figures (seed 001 §5: instruction mix, communication pattern shares, sharing
 * degree, working-set knees, busy / idle / imbalance / contention), then simulates them with CDAT on a machine of
 * one node per thread (hits, where misses are satisfied, the traffic and its average latency) and says where the
 * reports are.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Trace the bundled MatMul and SOR examples with 4 threads, analyse them with CIAT and",
            "simulate them with CDAT on one node per thread.",
            "Writes the traces and reports into the output folder and prints the main figures."})
public final class DemoCommand implements Callable<Integer> {

    @Option(names = {"-o", "--out"}, defaultValue = "demo-out", paramLabel = "DIR",
            description = "Folder for traces and reports (default: demo-out).")
    Path out;

    @Option(names = "--threads", defaultValue = "4", description = "Threads of each example (default 4).")
    int threads;

    @Option(names = "--level", defaultValue = "2", paramLabel = "2|3",
            description = "Agent level: 2 data accesses, 3 also branches (default 2).")
    int level;

    @Option(names = "--matmul-size", defaultValue = "96", description = "Matrix order of MatMul (default 96).")
    int matmulSize;

    @Option(names = "--sor-size", defaultValue = "64", description = "Grid size of SOR (default 64).")
    int sorSize;

    @Override
    public Integer call() throws IOException {
        if (threads < 1 || threads > 64) {
            throw new UserError("option --threads: value " + threads + " out of range (1..64)");
        }
        if (level != 2 && level != 3) {
            throw new UserError("option --level: value " + level + " out of range (2 or 3)");
        }
        // the examples' own limits (MatMul, Sor), checked before anything is traced or written
        if (matmulSize < 1 || matmulSize > 4096) {
            throw new UserError("option --matmul-size: value " + matmulSize + " out of range (1..4096)");
        }
        if (sorSize < 2 || sorSize > 4096) {
            throw new UserError("option --sor-size: value " + sorSize + " out of range (2..4096)");
        }
        Path jar = findExamplesJar();
        try {
            Files.createDirectories(out);
        } catch (java.io.IOException e) {
            throw new UserError(out + ": cannot create the output folder: " + (e instanceof java.nio.file
                    .FileSystemException && ((java.nio.file.FileSystemException) e).getReason() != null
                    ? ((java.nio.file.FileSystemException) e).getReason() : e.getClass().getSimpleName()));
        }
        RunFiles.checkWritable(List.of(out.resolve("matmul.1.0")));
        PrintStream o = System.out;
        o.println("dsmscope demo: tracing and analysing two example programs with " + plural(threads, "thread")
                + " (agent level " + level + "), output in " + out + "/");
        o.println("Each step prints the command that does it; paste it to run the step yourself.");
        int status = example(o, jar, "matmul", "org.dsmscope.examples.MatMul", matmulSize,
                "MatMul " + matmulSize + "x" + matmulSize);
        if (status == 0) {
            status = example(o, jar, "sor", "org.dsmscope.examples.Sor", sorSize,
                    "red-black SOR " + sorSize + "x" + sorSize);
        }
        if (status == 0) {
            next(o);
        }
        if (status == 0) {
            status = studyReport(o, jar);
        }
        return status;
    }

    /**
     * The demo's last step: a small study of both examples over 1, 2 and the demo's thread count ({@code dsmscope
     * study} for the smaller counts, the runs above for the demo's own), drawn in one report (report/README.md).
     */
    private int studyReport(PrintStream o, Path jar) throws IOException {
        List<Path> inputs = new ArrayList<>();
        Object[][] examples = {{"matmul", "org.dsmscope.examples.MatMul", matmulSize},
            {"sor", "org.dsmscope.examples.Sor", sorSize}};
        String counts = threads > 2 ? "1,2" : threads == 2 ? "1" : "";
        for (Object[] ex : examples) {
            Path dir = out.resolve("study-" + ex[0]);
            if (!counts.isEmpty()) {
                o.println();
                o.println("-- study: " + launcher() + " study --threads " + counts + " --keep-traces -o "
                        + quote(dir.toString()) + " -- java -cp " + quote(pasteable(jar)) + " " + ex[1] + " {threads} "
                        + ex[2]);
                o.flush();
                int status = quietly("study", "--threads", counts, "--keep-traces", "--level",
                        String.valueOf(level), "--name", (String) ex[0], "-o", dir.toString(), "--",
                        javaExecutable(), "-XX:-PrintWarnings", "-cp", jar.toString(), (String) ex[1], "{threads}",
                        String.valueOf(ex[2]));
                if (status != 0) {
                    return status;
                }
                inputs.add(dir.resolve("study.json"));
            }
            inputs.add(out.resolve(ex[0] + "." + threads + ".ciat.json"));
            inputs.add(out.resolve(ex[0] + "." + threads + ".cdat.json"));
        }
        Path report = out.resolve("report.html");
        ReportCommand.write(inputs, true, report, null);
        o.println();
        o.println("== the report: both examples over 1, 2 and " + threads + " threads, every figure of seed 001 §5:");
        o.println("   " + report);
        o.println("   open " + report.toAbsolutePath().toUri());
        return 0;
    }

    /** One example end to end: trace it, analyse it with CIAT, simulate it with CDAT; 0 or the failing status. */
    private int example(PrintStream o, Path jar, String name, String mainClass, int size, String title)
            throws IOException {
        String set = out.resolve(name) + "." + threads;
        o.println();
        o.println("== " + title);
        int status = trace(o, jar, out.resolve(name).toString(), mainClass, size);
        if (status == 0) {
            status = ciat(o, set);
        }
        if (status == 0) {
            status = cdat(o, set);
        }
        return status;
    }

    /** Step 1: runs the example under the agent; its own output (the check, the trace files) shows as it runs. */
    private int trace(PrintStream o, Path jar, String base, String mainClass, int size) {
        o.println("-- trace: " + launcher() + " trace --level " + level + " -o " + quote(base) + " -- java -cp "
                + quote(pasteable(jar)) + " " + mainClass + " " + threads + " " + size);
        o.flush();
        return Main.commandLine().execute("trace", "--level", String.valueOf(level), "-o", base, "--",
                javaExecutable(), "-XX:-PrintWarnings", "-cp", jar.toString(), mainClass, String.valueOf(threads),
                String.valueOf(size));
    }

    /** Step 2: CIAT on the trace set, then its main figures. */
    private int ciat(PrintStream o, String set) throws IOException {
        Path json = Paths.get(set + ".ciat.json");
        o.println("-- CIAT: " + launcher() + " ciat " + quote(set) + " --json " + quote(json.toString()));
        int status = quietly("ciat", set, "--json", json.toString());
        if (status == 0) {
            summarize(o, new ObjectMapper().readTree(json.toFile()), set, json);
        }
        return status;
    }

    /** Step 3: CDAT on a machine of one node per thread, then its main figures. */
    private int cdat(PrintStream o, String set) throws IOException {
        Path cfg = out.resolve("numa" + threads + ".cfg");
        Files.writeString(cfg, "# the demo's machine: one processor per thread, one node each (dsmscope demo)\n"
                + CdatConfig.builder().name("numa" + threads).nodes(Math.min(threads, 32))
                        .processorsPerNode((threads + 31) / 32).protocol(1).build().toText());
        Path json = Paths.get(set + ".cdat.json");
        o.println("-- CDAT: " + launcher() + " cdat " + quote(set) + " " + quote(cfg.toString()) + " --json "
                + quote(json.toString()));
        int status = quietly("cdat", set, cfg.toString(), "--json", json.toString());
        if (status == 0) {
            summarizeCdat(o, new ObjectMapper().readTree(json.toFile()), set, json);
        }
        return status;
    }

    /** Last: what to try next. */
    private void next(PrintStream o) {
        o.println();
        o.println("Next:");
        o.println("   " + launcher() + " dump " + quote(out.resolve("matmul." + threads + ".0").toString()) + " | less"
                + "    # the trace records as text");
        o.println("   " + launcher() + " cdat " + quote(out.resolve("matmul." + threads).toString()) + " "
                + quote(exampleConfig()) + "    # another machine: 2 nodes of 2 processors");
        o.println("   the report lines (tags RrTtLll) are described in ciat/README.md and cdat/README.md");
    }

    /**
     * Runs a dsmscope command with its standard output kept back (the demo prints the figures itself, in one
     * format); on failure that output is printed, and the command's errors always go to standard error.
     */
    private static int quietly(String... args) {
        StringWriter kept = new StringWriter();
        // commands a command runs (a study runs ciat, tdat, report) print to System.out: keep that back too
        PrintStream out = System.out;
        java.io.ByteArrayOutputStream nested = new java.io.ByteArrayOutputStream();
        int status;
        System.setOut(new PrintStream(nested, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(kept, true));
            status = cl.execute(args);
        } finally {
            System.setOut(out);
        }
        if (status != 0) {
            out.print(kept);
            out.print(nested.toString(java.nio.charset.StandardCharsets.UTF_8));
        }
        return status;
    }

    /** A word as a shell reads it back: as it is when it holds only safe characters, else in single quotes. */
    static String quote(String word) {
        return word.matches("[A-Za-z0-9_./:=+,@%-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    /** How the user started dsmscope ({@code bin/dsmscope} passes its path), so echoed commands can be pasted. */
    static String launcher() {
        String l = System.getProperty("dsmscope.launcher");
        if (l != null && !l.isBlank()) {
            return quote(pasteable(Paths.get(l)));
        }
        try {
            Path jar = Paths.get(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(jar)) {
                return "java -jar " + quote(pasteable(jar));
            }
        } catch (URISyntaxException | RuntimeException e) {
            // run from classes (tests): the command's name
        }
        return "dsmscope";
    }

    /** A path as it works from the working directory: relative when under it, else absolute. */
    static String pasteable(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path cwd = Paths.get("").toAbsolutePath();
        return abs.startsWith(cwd) && !abs.equals(cwd) ? cwd.relativize(abs).toString() : abs.toString();
    }

    /** The bundled 2 x 2 NUMA configuration beside the examples jar's project. */
    private static String exampleConfig() {
        Path home = findExamplesJar().getParent().getParent().getParent();
        return pasteable(home.resolve("examples/cdat/numa2x2.cfg"));
    }

    /** Prints the main figures of a CDAT JSON result. */
    static void summarizeCdat(PrintStream o, JsonNode root, String set, Path json) {
        JsonNode a = root.path("aggregate");
        JsonNode d = a.path("streams").path("data");
        long hits = d.path("hits").asLong();
        long misses = d.path("misses").asLong();
        JsonNode cfg = root.path("config");
        o.printf(Locale.ROOT, "   machine: %s of %s, protocol %s, page placement %s, data cache %s%n",
                plural(cfg.path("nodes").asLong(), "node"), plural(cfg.path("processors_per_node").asLong(),
                        "processor"), cfg.path("protocol").asText(), cfg.path("page_policy").asText(),
                cache(cfg.path("data_cache").asText()));
        o.printf(Locale.ROOT, "   data accesses %s: hits %s, misses %s; misses satisfied from local memory %s,"
                + " local cache %s, remote memory %s, remote cache %s%n", count(hits + misses),
                pct(hits, hits + misses), pct(misses, hits + misses),
                pct(d.path("localMemory").asLong(), misses), pct(d.path("localCache").asLong(), misses),
                pct(d.path("remoteMemory").asLong(), misses), pct(d.path("remoteCache").asLong(), misses));
        StringBuilder top = new StringBuilder();
        a.path("byType").fields().forEachRemaining(e -> {
            if (e.getValue().asLong() > 0) {
                top.append(top.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
                        .append(count(e.getValue().asLong()));
            }
        });
        o.printf(Locale.ROOT, "   traffic: %s for %s; average latency %.2f critical-path transactions per"
                + " request%n", plural(a.path("transactions").asLong(), "network transaction"),
                plural(a.path("requests").asLong(), "processor request"), a.path("averageLatency").asDouble());
        o.println("   transactions by type: " + top);
        o.println("   reports: " + set + ".cdat_report, " + json);
    }

    /** Prints the main figures of a CIAT JSON result. */
    static void summarize(PrintStream o, JsonNode root, String set, Path json) {
        JsonNode a = root.path("aggregate");
        JsonNode acc = a.path("accesses");
        long loads = acc.path("loads").asLong();
        long stores = acc.path("stores").asLong();
        long total = loads + stores;
        o.println("   data accesses " + count(total) + ": loads " + pct(loads, total) + ", stores "
                + pct(stores, total));
        o.println("   instruction mix (share of data accesses): " + mix(acc.path("load"), "load", total) + "; "
                + mix(acc.path("store"), "store", total));
        JsonNode c = a.path("communication");
        o.println("   communication (share of data accesses): RAW " + pct(c.path("raw").asLong(), total) + ", WAR "
                + pct(c.path("war").asLong(), total) + ", WAW " + pct(c.path("waw").asLong(), total) + ", RAR "
                + pct(c.path("rar").asLong(), total));
        o.println("   sharing degree, write epochs read by 1..p processors: " + list(c.path("sharingDegree")));
        o.println("   invalidation degree, stores invalidating 1..p readers: " + list(c.path("invalidationDegree")));
        JsonNode age = a.path("accessAge");
        o.println("   working set (" + age.path("scope").asText() + " scope): " + knees(age));
        JsonNode con = a.path("concurrency");
        o.println("   concurrency, pseudo-clock instructions per thread: busy " + list(con.path("busy")) + ", idle "
                + list(con.path("idle")) + ", imbalance " + list(con.path("imbalance")) + ", contention "
                + list(con.path("contention")));
        JsonNode mem = a.path("memory");
        o.println("   memory: " + plural(mem.path("touchedPages").asLong(), "touched page") + " ("
                + count(mem.path("sharedPages").asLong()) + " shared), " + count(mem.path("touchedBytes").asLong())
                + " touched bytes (" + count(mem.path("sharedBytes").asLong()) + " shared)");
        o.println("   reports: " + set + ".ciat_report, " + set + ".memory, " + json);
    }

    private static String mix(JsonNode classes, String kind, long total) {
        StringBuilder b = new StringBuilder();
        classes.fields().forEachRemaining(e -> {
            long n = e.getValue().asLong();
            if (n > 0) {
                b.append(b.length() == 0 ? "" : ", ").append(kind).append(' ').append(e.getKey()).append(' ')
                        .append(pct(n, total));
            }
        });
        return b.length() == 0 ? "no " + kind + "s" : b.toString();
    }

    /** Working-set knees: the smallest power-of-two sizes within which 50%, 90% and 99% of the accesses fall. */
    static String knees(JsonNode age) {
        long accesses = age.path("accesses").asLong();
        long infinite = age.path("infinite").asLong();
        if (accesses == 0) {
            return "no accesses";
        }
        StringBuilder b = new StringBuilder();
        double[] fractions = {0.5, 0.9, 0.99};
        boolean unreached = false;
        for (double f : fractions) {
            // not reached: more than 1 - f of the accesses are first accesses (infinite age), which no size holds
            String at = "not within any size (first accesses are " + pct(infinite, accesses) + ")";
            unreached = true;
            for (JsonNode point : age.path("cdf")) {
                if (point.path("accesses").asLong() >= f * accesses) {
                    at = "within " + bytes(point.path("bytes").asLong());
                    unreached = false;
                    break;
                }
            }
            b.append(b.length() == 0 ? "" : ", ").append(Math.round(f * 100)).append("% of accesses ").append(at);
        }
        if (!unreached) {
            b.append("; first accesses ").append(pct(infinite, accesses));
        }
        return b.toString();
    }

    private static String bytes(long n) {
        if (n >= 1 << 20 && n % (1 << 20) == 0) {
            return (n >> 20) + " MiB";
        }
        if (n >= 1 << 10 && n % (1 << 10) == 0) {
            return (n >> 10) + " KiB";
        }
        return n + " B";
    }

    private static String list(JsonNode array) {
        StringBuilder b = new StringBuilder("[");
        for (JsonNode n : array) {
            b.append(b.length() == 1 ? "" : " ").append(count(n.asLong()));
        }
        return b.append(']').toString();
    }

    /** A cache of the configuration file ({@code SIZE ASSOCIATIVITY REPLACEMENT}) in words: "32K, 4-way, lru". */
    static String cache(String item) {
        String[] f = item.trim().split("\\s+");
        if (f.length != 3) {
            return item;
        }
        return f[0] + ", " + ("full".equals(f[1]) ? "fully associative" : f[1] + "-way") + ", " + f[2]
                + " replacement";
    }

    /** A count in the demo's one integer format: digits grouped by thousands ("2,931,622"). */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A count with its noun, singular for one ("1 processor", "4 nodes"). */
    static String plural(long n, String noun) {
        return count(n) + " " + noun + (n == 1 ? "" : "s");
    }

    private static String pct(long n, long total) {
        return total == 0 ? "0.0%" : String.format(Locale.ROOT, "%.1f%%", 100.0 * n / total);
    }

    private static String javaExecutable() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The examples jar: under dsmscope.home, or beside the cli's own classes, or in the working directory. */
    static Path findExamplesJar() {
        List<Path> candidates = new ArrayList<>();
        String home = System.getProperty("dsmscope.home");
        if (home != null) {
            candidates.add(Paths.get(home, "examples", "target", "examples.jar"));
        }
        try {
            Path here = Paths.get(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path d = here.getParent(); d != null; d = d.getParent()) {
                candidates.add(d.resolve("examples/target/examples.jar"));
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through to the working directory
        }
        for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
            candidates.add(d.resolve("examples/target/examples.jar"));
        }
        for (Path p : candidates) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new UserError("cannot find examples/target/examples.jar; build the project first (mvn -B -DskipTests"
                + " package) or run bin/dsmscope, which builds it");
    }
}
