package org.dsmscope.cluster;

import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.channels.ReadableByteChannel;
import java.util.function.IntFunction;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;
import org.dsmscope.replay.Replay;
import org.dsmscope.trace.BadInputException;

/**
 * What every task of a cluster run is given (SPEC §4 "Partitioning"): the job with its options, the broadcast plan,
 * the application's Hadoop configuration and the test hooks; and the replay of one partition, from the whole trace
 * set or from its routed streams ({@link Shuffle}), as a task's {@link Outcome}.
 */
final class Tasks implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The job (options, trace inputs). */
    final PartitionJob job;
    /** The driver's plan. */
    final Broadcast<Replay.Plan> plan;
    /**
     * The application's Hadoop configuration, broadcast where a trace set is copied through Hadoop; null where every
     * task reads the files where they lie (a configuration costs each task some hundred milliseconds of CPU to
     * serialize and read back).
     */
    private final Broadcast<SerializableConfiguration> hadoop;
    /** Test hook {@link SparkRun#HALT_PARTITION}, or -1. */
    private final int halt;
    /** Test hook {@link SparkRun#EXECUTOR_ROOT}, or null. */
    final String root;

    Tasks(PartitionJob job, Broadcast<Replay.Plan> plan, Broadcast<SerializableConfiguration> hadoop, int halt,
            String root) {
        this.job = job;
        this.plan = plan;
        this.hadoop = hadoop;
        this.halt = halt;
        this.root = root;
    }

    /**
     * Replays partition k here ({@code where}: this executor) from the trace set, or, with {@code routed}, from its
     * threads' routed streams; a user's mistake comes back as the outcome's error, the problems partition 0's replay
     * continued past ({@code --skip-bad-records}) with its value. The test hook halts this JVM
     * after the first attempt of partition {@link #halt}'s replay (a killed executor: Spark retries the task).
     */
    Outcome replay(int k, String where, IntFunction<ReadableByteChannel> routed) {
        Outcome done;
        try (PartitionJob.Inputs in = job.open(hadoop(), root, routed != null)) {
            Replay replay = new Replay(in.detailed, in.calls, job.replayOptions());
            try {
                done = Outcome.of(k, job.run(k, plan.value(), replay, routed), where, replay);
            } catch (BadInputException | UncheckedIOException e) {
                return new Outcome(k, null, job.named(e.getMessage(), in), where, false, 0);
            }
        } catch (BadInputException | UncheckedIOException e) {
            return new Outcome(k, null, e.getMessage(), where, false, 0);
        }
        TaskContext tc = TaskContext.get();
        if (k == halt && tc != null && tc.attemptNumber() == 0) {
            Runtime.getRuntime().halt(137); // the test's killed executor: Spark retries the task elsewhere
        }
        return done;
    }

    /** The Hadoop configuration for copies of the trace set, or null where the files are read where they lie. */
    org.apache.hadoop.conf.Configuration hadoop() {
        return hadoop == null ? null : hadoop.value().value();
    }

    /** Where this task runs: "executor ID on HOST". */
    static String where() {
        SparkEnv env = SparkEnv.get();
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "unknown host";
        }
        return "executor " + (env == null ? "?" : env.executorId()) + " on " + host;
    }
}
