package org.dsmscope.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope cluster ciat|cdat …}: CIAT and CDAT on an Apache Spark cluster (SPEC §4 "Partitioning",
 * cluster/README.md). A thin launcher: it runs the cluster module's shaded jar ({@code
 * cluster/target/dsmscope-cluster-VERSION-all.jar}, or {@code DSMSCOPE_CLUSTER_JAR}) in a child JVM with the
 * {@code --add-opens} flags Spark needs on Java 17, so that this module, and the core distribution, carry no Spark.
 */
@Command(name = "cluster", separator = " ",
        description = {"CIAT or CDAT in partitions on an Apache Spark cluster; outputs identical",
            "to a serial run's (cluster/README.md). Forms:",
            "  cluster ciat [--master URL] [options] [CALLS_URI] TRACE_URI",
            "  cluster cdat [--master URL] [options] [CALLS_URI] TRACE_URI cfg_file",
            "Runs cluster/target/dsmscope-cluster-*-all.jar (or $DSMSCOPE_CLUSTER_JAR)",
            "in a child JVM (options: $DSMSCOPE_CLUSTER_JAVA_OPTS, default -Xmx4g and late C2;",
            "its classes shared through NAME.jsa beside the jar, made by the first run;",
            "$DSMSCOPE_CLUSTER_CLASSPATH adds jars, e.g. hadoop-aws and the AWS SDK for s3a://).",
            "Build that jar with: mvn -B -pl cluster -am package -DskipTests"})
public final class ClusterCommand implements Callable<Integer> {
    /**
     * Spark's {@code JavaModuleOptions} (org.apache.spark.launcher): the packages Spark reflects into on Java 17
     * (also in cluster/pom.xml's surefire argLine and cluster/README.md).
     */
    static final List<String> SPARK_JAVA_OPTIONS = List.of("-XX:+IgnoreUnrecognizedVMOptions",
            "--add-modules=jdk.incubator.vector", "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
            "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "-Dio.netty.tryReflectionSetAccessible=true");

    /**
     * The child JVM's options without $DSMSCOPE_CLUSTER_JAVA_OPTS: 4 GiB of heap, and C2 compilation (tier 4) ten
     * times later than by default. Spark's start runs thousands of methods a few thousand times each, which C2
     * would compile for nothing (some seconds of CPU); the replay's loops run millions of times and still reach C2
     * within their first second (cluster/README.md "Running it").
     */
    static final String DEFAULT_JAVA_OPTIONS = "-Xmx4g -XX:Tier4InvocationThreshold=50000"
            + " -XX:Tier4MinInvocationThreshold=6000 -XX:Tier4CompileThreshold=150000"
            + " -XX:Tier4BackEdgeThreshold=400000";

    /** How to build the jar, said when it is missing. */
    static final String BUILD = "mvn -B -pl cluster -am package -DskipTests";

    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "ciat|cdat and their options, passed on")
    List<String> args = new ArrayList<>();

    @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "print the command line options")
    boolean help;

    /** Everything after the first positional argument ({@code ciat}, {@code cdat}) belongs to the cluster jar. */
    @CommandLine.Spec
    void spec(CommandLine.Model.CommandSpec spec) {
        spec.parser().stopAtPositional(true);
        spec.parser().unmatchedOptionsArePositionalParams(true);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (args.isEmpty()) {
            throw new UserError("cluster: give a command: cluster ciat ... or cluster cdat ... (dsmscope cluster"
                    + " --help)");
        }
        Path jar = jar(System.getenv("DSMSCOPE_CLUSTER_JAR"), System.getProperty("dsmscope.home"));
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String opts = System.getenv("DSMSCOPE_CLUSTER_JAVA_OPTS");
        for (String o : (opts == null || opts.isBlank() ? DEFAULT_JAVA_OPTIONS : opts).trim().split("\\s+")) {
            cmd.add(o);
        }
        cmd.addAll(SPARK_JAVA_OPTIONS);
        String extra = System.getenv("DSMSCOPE_CLUSTER_CLASSPATH");
        Path making = null;
        if (extra == null || extra.isBlank()) {
            making = classArchive(jar, cmd, opts, args);
            cmd.add("-jar");
            cmd.add(jar.toString());
        } else {
            launchClassPath(cmd, jar, extra);
        }
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        sparkUser(pb.environment(), args, System.getProperty("user.name"));
        Process p = pb.start();
        int status = -1;
        try {
            status = p.waitFor();
            return status;
        } finally {
            p.destroy();
            if (making != null) {
                keep(making, status == 0 ? archive(jar) : null);
            }
        }
    }

    /** The cluster jar's entry point, run with {@code -cp} when jars are added to it. */
    static final String MAIN = "org.dsmscope.cluster.ClusterMain";

    /**
     * Adds to {@code cmd} a class path of {@code jar} followed by {@code extra} ($DSMSCOPE_CLUSTER_CLASSPATH: the
     * user's Hadoop connectors, e.g. hadoop-aws and the AWS SDK for {@code s3a://}, cluster/README.md) and the
     * entry point. No class-data-sharing archive then: a dynamic archive holds one class path's classes.
     */
    static void launchClassPath(List<String> cmd, Path jar, String extra) {
        cmd.add("-cp");
        cmd.add(jar + File.pathSeparator + extra.trim());
        cmd.add(MAIN);
    }

    /**
     * Sets {@code SPARK_USER} to {@code user} in the child's environment {@code env} for a local master (no {@code
     * --master}, or {@code local…}) where it is unset: Spark then takes the application's user from it instead of
     * initializing Hadoop's {@code UserGroupInformation}, which parses Hadoop's default configuration, about a
     * quarter of the Spark context's start (cluster/README.md "Running it"). Other masters keep Hadoop's user (a
     * secured cluster's may differ from the account's name).
     */
    static void sparkUser(Map<String, String> env, List<String> args, String user) {
        if (env.containsKey("SPARK_USER") || user == null || user.isEmpty()) {
            return;
        }
        String master = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--master") && i + 1 < args.size()) {
                master = args.get(i + 1);
            } else if (a.startsWith("--master=")) {
                master = a.substring("--master=".length());
            }
        }
        if (master == null || master.startsWith("local")) {
            env.put("SPARK_USER", user);
        }
    }

    /** Moves a new archive into place ({@code to}), or deletes it ({@code to} null); a failure leaves none. */
    private static void keep(Path making, Path to) {
        try {
            if (to != null && Files.isRegularFile(making)) {
                Files.move(making, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.deleteIfExists(making);
            }
        } catch (IOException e) {
            // an archive only saves time: the next run makes another
        }
    }

    /** The class-data-sharing archive of {@code jar}: beside it, {@code NAME.jsa}. */
    static Path archive(Path jar) {
        String n = jar.getFileName().toString();
        return jar.resolveSibling((n.endsWith(".jar") ? n.substring(0, n.length() - 4) : n) + ".jsa");
    }

    /**
     * Adds to {@code cmd} the class-data-sharing flags of the child JVM (JDK 17 dynamic archives): Spark's some
     * ten thousand classes are parsed and verified once, into {@link #archive} beside the jar, and mapped by later
     * runs, which saves seconds of CPU at every start. The first run of an analysis with a jar newer than its
     * archive makes a new one (returned: a temporary name, moved into place if the run succeeds); none where the
     * folder is not writable or {@code opts} ($DSMSCOPE_CLUSTER_JAVA_OPTS) sets class sharing itself. {@code args}:
     * the cluster command's arguments (only an analysis, not its help, makes an archive).
     */
    static Path classArchive(Path jar, List<String> cmd, String opts, List<String> args) throws IOException {
        if (opts != null && (opts.contains("SharedArchiveFile") || opts.contains("ArchiveClassesAtExit")
                || opts.contains("-Xshare"))) {
            return null;
        }
        Path archive = archive(jar);
        cmd.add("-Xlog:cds=off");
        cmd.add("-Xlog:cds+dynamic=off");
        if (Files.isRegularFile(archive)
                && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) >= 0) {
            cmd.add("-XX:SharedArchiveFile=" + archive);
            return null;
        }
        boolean analysis = !args.isEmpty() && (args.get(0).equals("ciat") || args.get(0).equals("cdat"))
                && !args.contains("--help") && !args.contains("-h");
        if (!analysis || !Files.isWritable(archive.getParent())) {
            return null;
        }
        Path making = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        cmd.add("-XX:ArchiveClassesAtExit=" + making);
        return making;
    }

    /**
     * The cluster jar: {@code env} (DSMSCOPE_CLUSTER_JAR) if given, else the newest {@code
     * dsmscope-cluster-*-all.jar} in {@code home/cluster/target} (home: the checkout, from the launcher; else the
     * current folder). Missing: a {@link UserError} saying how to build it.
     */
    static Path jar(String env, String home) throws IOException {
        if (env != null && !env.isEmpty()) {
            Path p = Path.of(env);
            if (!Files.isRegularFile(p)) {
                throw new UserError("cluster: DSMSCOPE_CLUSTER_JAR=" + env + ": no such file");
            }
            return p;
        }
        Path dir = Path.of(home == null ? "." : home, "cluster", "target");
        Path best = null;
        if (Files.isDirectory(dir)) {
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String n = f.getFileName().toString();
                    if (n.startsWith("dsmscope-cluster-") && n.endsWith("-all.jar") && (best == null
                            || Files.getLastModifiedTime(f).compareTo(Files.getLastModifiedTime(best)) > 0)) {
                        best = f;
                    }
                }
            }
        }
        if (best == null) {
            throw new UserError("cluster: the cluster jar is not built (no " + dir + File.separator
                    + "dsmscope-cluster-*-all.jar): build it with " + BUILD + ", or set DSMSCOPE_CLUSTER_JAR");
        }
        return best;
    }
}
