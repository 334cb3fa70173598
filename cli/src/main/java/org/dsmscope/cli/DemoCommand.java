package org.dsmscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
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
        o.println("dsmscope demo: tracing and analysing two example programs with " + threads + " threads"
                + " (agent level " + level + "), output in " + out + "/");
        int status = demo(o, jar, "matmul", "org.dsmscope.examples.MatMul", matmulSize,
                "MatMul " + matmulSize + "x" + matmulSize);
        if (status == 0) {
            status = demo(o, jar, "sor", "org.dsmscope.examples.Sor", sorSize,
                    "red-black SOR " + sorSize + "x" + sorSize);
        }
        if (status == 0) {
            o.println();
            o.println("Next: dsmscope dump " + out.resolve("matmul." + threads + ".0") + " | less;  the report tags"
                    + " (RrTtLll) are listed in ciat/README.md and cdat/README.md; try other machines with"
                    + " dsmscope cdat " + out.resolve("matmul." + threads) + " examples/cdat/numa2x2.cfg.");
        }
        return status;
    }

    private int demo(PrintStream o, Path jar, String name, String mainClass, int size, String title)
            throws IOException {
        String base = out.resolve(name).toString();
        String set = base + "." + threads;
        o.println();
        o.println("== " + title + ": dsmscope trace --level " + level + " -o " + base + " -- java -cp "
                + jar.getFileName() + " " + mainClass + " " + threads + " " + size);
        List<String> trace = new ArrayList<>(List.of("trace", "--level", String.valueOf(level), "-o", base, "--",
                javaExecutable(), "-XX:-PrintWarnings", "-cp", jar.toString(), mainClass,
                String.valueOf(threads), String.valueOf(size)));
        int status = Main.commandLine().execute(trace.toArray(new String[0]));
        if (status != 0) {
            return status;
        }
        Path json = Paths.get(set + ".ciat.json");
        o.println("== dsmscope ciat " + set + " --json " + json);
        status = Main.commandLine().execute("ciat", set, "--json", json.toString());
        if (status != 0) {
            return status;
        }
        summarize(o, new ObjectMapper().readTree(json.toFile()), set, json);
        Path cfg = out.resolve("numa" + threads + ".cfg");
        Files.writeString(cfg, "# the demo's machine: one processor per thread, one node each (dsmscope demo)\n"
                + CdatConfig.builder().name("numa" + threads).nodes(Math.min(threads, 32))
                        .processorsPerNode((threads + 31) / 32).protocol(1).build().toText());
        Path cjson = Paths.get(set + ".cdat.json");
        o.println("== dsmscope cdat " + set + " " + cfg + " --json " + cjson);
        status = Main.commandLine().execute("cdat", set, cfg.toString(), "--json", cjson.toString());
        if (status != 0) {
            return status;
        }
        summarizeCdat(o, new ObjectMapper().readTree(cjson.toFile()), set, cjson);
        return 0;
    }

    /** Prints the main figures of a CDAT JSON result. */
    static void summarizeCdat(PrintStream o, JsonNode root, String set, Path json) {
        JsonNode a = root.path("aggregate");
        JsonNode d = a.path("streams").path("data");
        long hits = d.path("hits").asLong();
        long misses = d.path("misses").asLong();
        o.printf(Locale.ROOT, "   machine: %s nodes x %s processors, protocol %s, %s, data cache %s%n",
                root.path("config").path("nodes").asText(), root.path("config").path("processors_per_node").asText(),
                root.path("config").path("protocol").asText(), root.path("config").path("page_policy").asText(),
                root.path("config").path("data_cache").asText());
        o.printf(Locale.ROOT, "   data: hits %s, misses %s; misses satisfied from local memory %s, local cache %s,"
                + " remote memory %s, remote cache %s%n", pct(hits, hits + misses), pct(misses, hits + misses),
                pct(d.path("localMemory").asLong(), misses), pct(d.path("localCache").asLong(), misses),
                pct(d.path("remoteMemory").asLong(), misses), pct(d.path("remoteCache").asLong(), misses));
        StringBuilder top = new StringBuilder();
        a.path("byType").fields().forEachRemaining(e -> {
            if (e.getValue().asLong() > 0) {
                top.append(top.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
            }
        });
        o.printf(Locale.ROOT, "   traffic: %,d transactions for %,d processor requests, average latency %.2f"
                + " transactions (%s)%n", a.path("transactions").asLong(), a.path("requests").asLong(),
                a.path("averageLatency").asDouble(), top);
        o.println("   reports: " + set + ".cdat_report, " + json);
    }

    /** Prints the main figures of a CIAT JSON result. */
    static void summarize(PrintStream o, JsonNode root, String set, Path json) {
        JsonNode a = root.path("aggregate");
        JsonNode acc = a.path("accesses");
        long loads = acc.path("loads").asLong();
        long stores = acc.path("stores").asLong();
        long total = loads + stores;
        o.printf(Locale.ROOT, "   data accesses %,d: loads %s, stores %s%n", total, pct(loads, total),
                pct(stores, total));
        o.println("   instruction mix: " + mix(acc.path("load"), "load", total) + "; "
                + mix(acc.path("store"), "store", total));
        JsonNode c = a.path("communication");
        o.printf(Locale.ROOT, "   communication (share of data accesses): RAW %s  WAR %s  WAW %s  RAR %s%n",
                pct(c.path("raw").asLong(), total), pct(c.path("war").asLong(), total),
                pct(c.path("waw").asLong(), total), pct(c.path("rar").asLong(), total));
        o.println("   sharing degree S[1..p]: " + list(c.path("sharingDegree"))
                + "   invalidation degree I[1..p]: " + list(c.path("invalidationDegree")));
        JsonNode age = a.path("accessAge");
        o.println("   working set (" + age.path("scope").asText() + " scope): " + knees(age));
        JsonNode con = a.path("concurrency");
        o.println("   concurrency, instructions per thread: busy " + list(con.path("busy")) + ", idle "
                + list(con.path("idle")) + ", imbalance " + list(con.path("imbalance")) + ", contention "
                + list(con.path("contention")));
        JsonNode mem = a.path("memory");
        o.printf(Locale.ROOT, "   memory: %d touched pages, %d shared; %,d touched bytes, %,d shared%n",
                mem.path("touchedPages").asLong(), mem.path("sharedPages").asLong(),
                mem.path("touchedBytes").asLong(), mem.path("sharedBytes").asLong());
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
            b.append(b.length() == 1 ? "" : " ").append(n.asText());
        }
        return b.append(']').toString();
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
