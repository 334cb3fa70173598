package org.dsmscope.cluster;

import java.io.PrintWriter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import org.apache.spark.util.SerializableConfiguration;
import org.dsmscope.replay.Replay;

/**
 * A Spark application running one partitioned analysis (cluster/README.md): starts the context (its UI link on
 * standard error), broadcasts the driver's plan, runs one task per partition, shows each stage's progress on a
 * terminal, and collects the tasks' values in partition order. Values come back through Spark's task results
 * ({@code collect}): a small one directly, one above {@code spark.task.maxDirectResultSize} (1 MiB) through the block
 * manager, all within {@code spark.driver.maxResultSize}.
 */
final class SparkRun implements AutoCloseable {
    /** Test hook: the partition whose first attempt halts its executor after the replay (a killed worker). */
    static final String HALT_PARTITION = "spark.dsmscope.test.haltPartition";
    /** Test hook: a folder prefixed to local trace paths on executors (a worker that mounts them elsewhere). */
    static final String EXECUTOR_ROOT = "spark.dsmscope.test.executorRoot";

    private final JavaSparkContext sc;
    private final String tool;
    private final PrintWriter err;
    private final boolean progress;
    private String mode;
    private Outcome first;

    /**
     * Starts a Spark context for {@code tool} ("cluster ciat") on {@code master} (null: spark-submit's, else
     * {@code local[*]}) with the {@code KEY=VALUE} settings {@code confs}; {@code progress} shows stages on {@code
     * err}.
     */
    SparkRun(String tool, String master, String appName, List<String> confs, PrintWriter err, boolean progress) {
        this.tool = tool;
        this.err = err;
        this.progress = progress;
        SparkConf conf = new SparkConf().setAppName(appName);
        if (master != null) {
            conf.setMaster(master);
        } else if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
        }
        conf.set("spark.ui.showConsoleProgress", "false");
        boolean local = conf.get("spark.master").startsWith("local");
        if (local) {
            // one machine: no web UI unless asked for (--conf spark.ui.enabled=true); it costs some seconds of CPU
            conf.set("spark.ui.enabled", "false");
            // the shuffle's blocks never cross a network: compressing and check-summing them is CPU for nothing
            conf.set("spark.shuffle.compress", "false");
            conf.set("spark.shuffle.checksum.enabled", "false");
            conf.set("spark.broadcast.compress", "false");
        }
        for (String kv : confs) {
            int eq = kv.indexOf('=');
            if (eq < 1) {
                throw new ClusterError("option --conf: '" + kv + "' is not KEY=VALUE");
            }
            conf.set(kv.substring(0, eq), kv.substring(eq + 1));
        }
        String jar = ownJar();
        if (jar != null && !local && !conf.contains("spark.jars")
                && !onClassPath(conf.get("spark.executor.extraClassPath", ""), jar)) {
            conf.set("spark.jars", jar);
        }
        sc = new JavaSparkContext(conf);
        String ui = sc.sc().uiWebUrl().isDefined() ? sc.sc().uiWebUrl().get() : "off (spark.ui.enabled=false)";
        err.println("dsmscope: " + tool + ": Spark " + sc.version() + ", master " + sc.master() + ", application "
                + sc.sc().applicationId() + "; Spark UI: " + ui);
        err.flush();
    }

    /**
     * True if the class path {@code cp} (the executors', {@code spark.executor.extraClassPath}) has a jar of {@code
     * jar}'s name: the executors have the classes, and the driver ships none (each executor would fetch the some 200
     * MB of the shaded jar from the driver and copy them to its work folder). A local master's executor shares the
     * driver's class path and gets no jar either.
     */
    static boolean onClassPath(String cp, String jar) {
        String name = java.nio.file.Path.of(jar).getFileName().toString();
        for (String e : cp.split(java.io.File.pathSeparator)) {
            if (e.equals(name) || e.endsWith(java.io.File.separator + name)) {
                return true;
            }
        }
        return false;
    }

    /** The jar this class was loaded from (the shaded cluster jar), or null (classes on a class path: tests). */
    private static String ownJar() {
        try {
            java.security.CodeSource cs = SparkRun.class.getProtectionDomain().getCodeSource();
            String p = cs == null ? null : cs.getLocation().toURI().getPath();
            return p != null && p.endsWith(".jar") ? p : null;
        } catch (java.net.URISyntaxException | SecurityException e) {
            return null;
        }
    }

    /** The Hadoop configuration of this application (spark.hadoop.* settings included). */
    org.apache.hadoop.conf.Configuration hadoopConfiguration() {
        return sc.hadoopConfiguration();
    }

    /** The cluster's default parallelism (the default number of partitions). */
    int defaultParallelism() {
        return sc.defaultParallelism();
    }

    /**
     * Runs {@code job} for every partition of {@code plan}, one task each, and returns their values in partition
     * order. A task stopped by a user's mistake throws {@link ClusterError} naming it (the first in partition
     * order); nothing partial is returned.
     */
    List<Serializable> run(PartitionJob job, Replay.Plan plan) {
        if (sc.sc().isStopped()) {
            throw stopped();
        }
        try {
            return collect(job, plan);
        } catch (IllegalStateException e) {
            if (sc.sc().isStopped()) {
                throw stopped();
            }
            throw e;
        }
    }

    /** The application was stopped under the driver (no master answered, or the cluster killed it). */
    private ClusterError stopped() {
        return new ClusterError(tool + ": the Spark application " + sc.sc().applicationId() + " was stopped before"
                + " its tasks ended (no master answering at " + sc.master() + ", or the cluster killed it: Spark's log"
                + " above says which); no results written");
    }

    private List<Serializable> collect(PartitionJob job, Replay.Plan plan) {
        int parts = plan.parts();
        Broadcast<Replay.Plan> shared = sc.broadcast(plan);
        Broadcast<SerializableConfiguration> hadoop = job.direct() ? null
                : sc.broadcast(new SerializableConfiguration(sc.hadoopConfiguration()));
        Tasks tasks = new Tasks(job, shared, hadoop, sc.getConf().getInt(HALT_PARTITION, -1),
                sc.getConf().get(EXECUTOR_ROOT, null));
        Progress shown = progress ? new Progress() : null;
        try {
            if (shuffles(job, plan)) {
                List<Serializable> v = values(shuffled(tasks, parts), parts, true);
                if (v != null) {
                    return v;
                }
                // a partition's replay failed on its routed streams, which name no trace file position: the tasks
                // below read the trace set and find the error again where it lies
            }
            List<Integer> ks = IntStream.range(0, parts).boxed().collect(Collectors.toList());
            sc.setJobDescription(tool + ": " + parts + " partitions, each reading the whole trace set");
            List<Outcome> got = sc.parallelize(ks, parts).map(k -> tasks.replay(k, Tasks.where(), null)).collect();
            mode = "each task read the whole trace set" + (job.routing(parts) == null ? ""
                    : " (the traces do not route: replay/README.md \"Partitioned replay\")");
            return values(got, parts, false);
        } finally {
            if (shown != null) {
                shown.close();
            }
            shared.destroy();
            if (hadoop != null) {
                hadoop.destroy();
            }
        }
    }

    /** True if the partitions' records go through a shuffle: the job routes and the plan's traces do. */
    private static boolean shuffles(PartitionJob job, Replay.Plan plan) {
        return plan.routable() && plan.threads() <= Shuffle.MAX_THREADS && job.routing(plan.parts()) != null;
    }

    /** Map tasks route each trace file once; the blocks are shuffled by partition; reduce task k replays k. */
    private List<Outcome> shuffled(Tasks tasks, int parts) {
        Replay.Plan plan = tasks.plan.value();
        int n = plan.threads();
        // a map task per chunk where the executors read the files where they lie (a chunk's bytes only); a copy
        // through Hadoop is of a whole file, so a map task then routes the whole file
        List<Long> ts = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int k = tasks.job.detailed.direct() ? plan.chunks(t) : 1;
            for (int c = 0; c < k; c++) {
                ts.add(Shuffle.task(t, k == 1 ? -1 : c));
            }
        }
        sc.setJobDescription(tool + ": " + n + " trace files routed to " + parts + " partitions");
        LongAccumulator read = sc.sc().longAccumulator("dsmscope accesses read");
        LongAccumulator routed = sc.sc().longAccumulator("dsmscope accesses routed");
        List<Outcome> got = sc.parallelize(ts, ts.size())
                .flatMapToPair(new Shuffle.Split(tasks, read, routed))
                .partitionBy(new Shuffle.ByPartition(parts))
                .mapPartitionsWithIndex(new Shuffle.Replays(tasks), false)
                .collect();
        long all = 0;
        long most = 0;
        for (Outcome o : got) {
            all += o.received;
            most = Math.max(most, o.received);
        }
        mode = String.format(Locale.ROOT, "records shuffled by address partition: %d trace files read once by %d"
                + " map tasks, %d data accesses routed %d times to %d partitions (a replay per partition: %d);"
                + " routed streams of %d bytes, at most %d to one partition", n, ts.size(), read.value(), routed.value(),
                parts, read.value() * parts, all, most);
        return got;
    }

    /**
     * The tasks' values in partition order; a task stopped by a user's mistake throws {@link ClusterError} naming it
     * (the first in partition order); with {@code routed}, an error met in a replay of routed streams gives null.
     */
    private List<Serializable> values(List<Outcome> got, int parts, boolean routed) {
        List<Serializable> values = new ArrayList<>();
        for (Outcome o : got) {
            if (o.error != null) {
                if (routed && !o.inMap) {
                    return null;
                }
                throw new ClusterError(o.error + " (partition " + o.part + " of " + parts + ", " + (o.inMap
                        ? "routing its trace file on " : "") + o.where + "; no results written)");
            }
            values.add(o.value);
            if (o.part == 0) {
                first = o;
            }
        }
        return values;
    }

    /** Partition 0's outcome of the last {@link #run} (its problems), or null before one. */
    Outcome first() {
        return first;
    }

    /** How the last {@link #run} read the traces (for the line the commands print), or null before one. */
    String mode() {
        return mode;
    }

    @Override
    public void close() {
        sc.stop();
    }

    /** Polls Spark's status tracker and shows each active stage's tasks on one line of standard error. */
    private final class Progress implements AutoCloseable {
        private final Thread thread;
        private volatile boolean done;
        private String last = "";

        Progress() {
            thread = new Thread(this::loop, "dsmscope-cluster-progress");
            thread.setDaemon(true);
            thread.start();
        }

        private void loop() {
            while (!done) {
                show();
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private synchronized void show() {
            StringBuilder line = new StringBuilder();
            for (int job : sc.statusTracker().getActiveJobIds()) {
                SparkJobInfo j = sc.statusTracker().getJobInfo(job);
                if (j == null) {
                    continue;
                }
                for (int st : j.stageIds()) {
                    SparkStageInfo s = sc.statusTracker().getStageInfo(st);
                    if (s != null && s.numActiveTasks() + s.numCompletedTasks() + s.numFailedTasks() > 0) {
                        line.append(String.format(Locale.ROOT, "%sstage %d: %d/%d tasks done, %d running%s",
                                line.length() == 0 ? "" : "; ", st, s.numCompletedTasks(), s.numTasks(),
                                s.numActiveTasks(), s.numFailedTasks() > 0 ? ", " + s.numFailedTasks() + " failed"
                                        : ""));
                    }
                }
            }
            String now = line.toString();
            if (!now.isEmpty() && !now.equals(last)) {
                err.println("dsmscope: " + tool + ": " + now);
                err.flush();
                last = now;
            }
        }

        @Override
        public void close() {
            done = true;
            thread.interrupt();
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
