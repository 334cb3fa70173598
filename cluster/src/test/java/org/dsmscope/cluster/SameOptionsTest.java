package org.dsmscope.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dsmscope.cli.Main;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code dsmscope ciat|cdat} and {@code dsmscope cluster ciat|cdat} take the same analysis options (the options
 * module's groups): the same names, help and defaults, and the same error line for a bad value, checked before
 * Spark starts. Only the options of where the analysis runs differ.
 */
class SameOptionsTest {
    /** The options of one machine: trace lists, threads, the progress line. */
    private static final Set<String> CLI_ONLY = Set.of("-t", "-c", "--partitions", "--progress", "--help");
    /** The options of a Spark application. */
    private static final Set<String> CLUSTER_ONLY = Set.of("--master", "--partitions", "--conf", "--read",
            "--progress", "--help");

    @TempDir
    static Path dir;
    static String set;
    static String cfg;
    static String cfgB;
    static String other;

    @BeforeAll
    static void traces() throws Exception {
        set = ClusterFixture.forkJoin(dir, 2_000).base();
        cfg = Files.writeString(dir.resolve("numa.cfg"), ClusterFixture.CONFIG).toString();
        cfgB = Files.writeString(dir.resolve("numa2.cfg"), ClusterFixture.CONFIG).toString();
        other = Files.writeString(dir.resolve("other.cfg"), ClusterFixture.CONFIG.replace("name = numa",
                "name = other")).toString();
    }

    private static CommandSpec cli(String command) {
        return Main.commandLine().getSubcommands().get(command).getCommandSpec();
    }

    private static CommandSpec cluster(String command) {
        return new CommandLine(new ClusterMain()).getSubcommands().get(command).getCommandSpec();
    }

    /** Each analysis option as its help shows it: names, parameter label, description, default. */
    private static Map<String, String> analysisOptions(CommandSpec spec, Set<String> own) {
        Map<String, String> m = new TreeMap<>();
        for (OptionSpec o : spec.options()) {
            if (!own.contains(o.longestName())) {
                m.put(o.longestName(), Arrays.toString(o.names()) + " " + o.paramLabel() + " "
                        + Arrays.toString(o.description()) + " default " + o.defaultValueString());
            }
        }
        return m;
    }

    @Test
    void ciatAndClusterCiat_declareTheSameAnalysisOptions() {
        Map<String, String> cli = analysisOptions(cli("ciat"), CLI_ONLY);
        assertEquals(cli, analysisOptions(cluster("ciat"), CLUSTER_ONLY));
        assertTrue(cli.keySet().containsAll(List.of("-HPUX", "-i", "-mhz", "--skip-bad-records", "--byte-order",
                "--seed-stream", "-ciat_events", "--json", "--age-scope", "--shared-range")), cli.keySet().toString());
    }

    @Test
    void cdatAndClusterCdat_declareTheSameAnalysisOptions() {
        Map<String, String> cli = analysisOptions(cli("cdat"), CLI_ONLY);
        assertEquals(cli, analysisOptions(cluster("cdat"), CLUSTER_ONLY));
        assertTrue(cli.keySet().containsAll(List.of("-HPUX", "-s", "--skip-bad-records", "--config", "--memory",
                "--check", "--json")), cli.keySet().toString());
    }

    /** Status and standard error of {@code dsmscope ARGS} (cli) or {@code dsmscope cluster ARGS}. */
    private static String[] run(boolean onCluster, List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status;
        if (onCluster) {
            status = ClusterMain.run(new PrintWriter(out), new PrintWriter(err), args.toArray(new String[0]));
        } else {
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(err));
            status = cl.execute(args.toArray(new String[0]));
        }
        return new String[] {String.valueOf(status), err.toString()};
    }

    /** Runs both commands; the same status 2 and, but for the command's name, the same first error line. */
    private static void sameError(String command, String... args) {
        List<String> a = new ArrayList<>(List.of(command));
        a.addAll(List.of(args));
        String[] one = run(false, a);
        String[] many = run(true, a);
        String what = String.join(" ", a) + ":\n" + one[1] + "against\n" + many[1];
        assertEquals("2", one[0], what);
        assertEquals("2", many[0], what);
        String line = many[1].lines().findFirst().orElse("").replace("dsmscope cluster " + command, "dsmscope "
                + command).replace("cluster " + command + ":", command + ":");
        assertEquals(one[1].lines().findFirst().orElse(""), line, what);
        assertTrue(line.startsWith("dsmscope: ") && !many[1].contains("Exception"), what);
    }

    @Test
    void badCiatOptions_giveTheSameErrorLine() {
        String[][] bad = {{"-ipc", "0"}, {"-s", "0"}, {"--sample", "1.5"}, {"--age-granularity", "3"},
            {"--age-scope", "cluster"}, {"-a"}, {"-dma_bw", "-1"}, {"--shared-range", "0x20-0x10"},
            {"--private-range", "nowhere"}, {"-i", "-2"}, {"--byte-order", "middle"}, {"--busy1", "0"},
            {"-s", "abc"}, {"--no-such-option"}, {"--partitions", "5000"}};
        for (String[] b : bad) {
            List<String> args = new ArrayList<>(List.of(b));
            args.add(set);
            sameError("ciat", args.toArray(new String[0]));
        }
    }

    @Test
    void badCdatOptions_giveTheSameErrorLine() {
        String[][] bad = {{"-ipc", "0", set, cfg}, {"--byte-order", "middle", set, cfg}, {"-k", set, cfg},
            {"--config", cfg, "--config", cfgB, set}, {"--json", "x.json", "--config", cfg, "--config", other,
                set}, {set, dir.resolve("no.cfg").toString()},
            {"--partitions", "-3", set, cfg}, {"-mhz", "x", set, cfg}};
        for (String[] b : bad) {
            sameError("cdat", b);
        }
    }
}
