package org.dsmscope.cluster;

import java.util.ArrayList;
import java.util.List;
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

    /** The number of partitions: {@code --partitions}, or {@code dflt} for 0; checked. */
    int partitions(int dflt) {
        return Partitions.count(partitions, dflt);
    }
}
