package org.dsmscope.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dsmscope.options.Partitions;
import picocli.CommandLine.Option;

/** The options of every cluster command that say where and how the Spark application runs (cluster/README.md). */
final class SparkFlags {
    @Option(names = "--master", paramLabel = "URL",
            description = {"Spark master: spark://HOST:7077, local[N], local[*], yarn, k8s://... (default: the one",
                "spark-submit gives, else local[*])"})
    String master;

    @Option(names = "--partitions", paramLabel = "N",
            description = "analysis partitions, one Spark task each (default 0: the cluster's default parallelism)")
    int partitions;

    @Option(names = "--conf", paramLabel = "KEY=VALUE", description = "a Spark setting (repeatable)")
    List<String> conf = new ArrayList<>();

    @Option(names = "--read", paramLabel = "auto|direct|copy",
            description = {"how tasks read the trace set: auto (default: local paths and file: URIs where they lie,",
                "other URIs copied through Hadoop's FileSystem), direct, or copy (always through Hadoop)"})
    String read = "auto";

    @Option(names = "--progress", negatable = true,
            description = "each stage's tasks on standard error (default: when standard error is a terminal)")
    Boolean progress;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print the command line options")
    boolean help;

    /** Whether to show progress. */
    boolean showProgress() {
        return progress != null ? progress : System.console() != null;
    }

    /** {@code local}, {@code local[N]}, {@code local[*]}, {@code local[N,F]}, {@code local[*,F]}: Spark's local masters. */
    private static final Pattern LOCAL = Pattern.compile("local(?:\\[(\\d+|\\*)(?:,\\d+)?\\])?");

    /**
     * The number of partitions as far as it is known before the Spark context starts: {@code --partitions N}, or for
     * 0 a local master's default parallelism as Spark's local scheduler counts it ({@code local}: 1, {@code local[N]}:
     * N, {@code local[*]}: the cores; no {@code --master}: spark-submit's, else {@code local[*]}); 0 where only the
     * context knows (another master, or {@code --conf} sets {@code spark.master} or {@code spark.default.parallelism}).
     * {@link Driver#ahead} plans with it, and the plan is made again should the context count otherwise.
     */
    int knownPartitions() {
        if (partitions != 0) {
            return partitions(1);
        }
        for (String kv : conf) {
            if (kv.startsWith("spark.master=") || kv.startsWith("spark.default.parallelism=")) {
                return 0;
            }
        }
        int cores = localCores(master != null ? master : System.getProperty("spark.master", "local[*]"));
        return cores > Partitions.MAX ? 0 : cores;
    }

    /**
     * The task slots of a local master {@code m} as Spark's local scheduler counts them ({@code local}: 1, {@code
     * local[N]}: N, {@code local[*]}: the cores), or 0 for another master.
     */
    static int localCores(String m) {
        Matcher l = LOCAL.matcher(m);
        if (!l.matches()) {
            return 0;
        }
        String n = l.group(1);
        int cores = n == null ? 1 : n.equals("*") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(n);
        return Math.max(cores, 0);
    }

    /** The number of partitions: {@code --partitions}, or {@code dflt} for 0; checked. */
    int partitions(int dflt) {
        return Partitions.count(partitions, dflt);
    }
}
