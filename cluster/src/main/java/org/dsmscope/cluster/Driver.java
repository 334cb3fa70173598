package org.dsmscope.cluster;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.dsmscope.replay.Replay;
import org.dsmscope.trace.BadInputException;

/**
 * The driver's side of a cluster run (SPEC §4 "Partitioning"): the trace set opened here (where it lies, or copied
 * through Hadoop), one prescan as the serial command makes it (synchronization variables, call-time match, clock
 * skeleton, work profile) into the {@link Replay.Plan} that every task gets, and the replay that is the context of
 * the merge (threads, processors, problems). Where the prescan needs nothing of Spark, it runs while the Spark
 * context starts ({@link #ahead}).
 */
final class Driver implements AutoCloseable {
    /** The replay whose prescan made {@link #plan}. */
    final Replay replay;
    /** The plan for the tasks. */
    final Replay.Plan plan;
    private final PartitionJob job;
    private final PartitionJob.Inputs in;

    private Driver(PartitionJob job, PartitionJob.Inputs in, Replay replay, Replay.Plan plan) {
        this.job = job;
        this.in = in;
        this.replay = replay;
        this.plan = plan;
    }

    /** Opens {@code job}'s trace sets on the driver and plans {@code parts} partitions. */
    static Driver open(PartitionJob job, SparkRun run, int parts) {
        return open(job, run.hadoopConfiguration(), parts);
    }

    /**
     * {@link #open(PartitionJob, SparkRun, int)} with the plan {@code ahead} made while the context started, where
     * it is of {@code parts} partitions (else, or with {@code ahead} null, the prescan runs now).
     */
    static Driver open(PartitionJob job, SparkRun run, int parts, Ahead ahead) {
        Driver d = ahead == null ? null : ahead.take(parts);
        return d != null ? d : open(job, run, parts);
    }

    /**
     * Starts the driver's prescan of {@code job}'s trace sets into a plan of {@code parts} partitions on a thread of
     * its own, before the Spark context (cluster/README.md "Running it"): the prescan and Spark's start, each mostly
     * one thread, then share the driver's cores. Null where the prescan needs the context: the number of partitions
     * is not known without it ({@code parts} below 1), or a trace set is copied through Hadoop (its configuration).
     */
    static Ahead ahead(PartitionJob job, int parts) {
        if (parts < 1 || !job.direct()) {
            return null;
        }
        CompletableFuture<Driver> plan = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                plan.complete(open(job, (Configuration) null, parts));
            } catch (Throwable e) {
                plan.completeExceptionally(e);
            }
        }, "dsmscope-driver-prescan");
        t.setDaemon(true);
        t.start();
        return new Ahead(plan, parts);
    }

    /** A prescan started before the Spark context ({@link #ahead}). */
    static final class Ahead {
        private final CompletableFuture<Driver> plan;
        private final int parts;
        private boolean taken;

        private Ahead(CompletableFuture<Driver> plan, int parts) {
            this.plan = plan;
            this.parts = parts;
        }

        /**
         * The driver, once its prescan has ended, if it planned {@code want} partitions (its error, a user's mistake
         * in the trace set, thrown as the prescan threw it); null, and the early driver closed, for another count.
         */
        Driver take(int want) {
            if (want != parts) {
                discard();
                return null;
            }
            taken = true;
            try {
                return plan.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                discard();
                throw new IllegalStateException("interrupted waiting for the driver's prescan", e);
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                if (c instanceof RuntimeException) {
                    throw (RuntimeException) c;
                }
                if (c instanceof Error) {
                    throw (Error) c;
                }
                throw new CompletionException(c);
            }
        }

        /** Closes the early driver when its prescan ends, unless {@link #take} handed it out; does not wait. */
        void discard() {
            if (!taken) {
                taken = true;
                plan.thenAccept(Driver::close);
            }
        }
    }

    /** {@link #open(PartitionJob, SparkRun, int)} with the Hadoop configuration {@code conf} for copies. */
    private static Driver open(PartitionJob job, Configuration conf, int parts) {
        PartitionJob.Inputs in = job.open(conf, null);
        boolean ok = false;
        try {
            Replay replay = new Replay(in.detailed, in.calls, job.replayOptions());
            Replay.Plan plan = replay.plan(parts, job.routing(parts) != null);
            ok = true;
            return new Driver(job, in, replay, plan);
        } catch (BadInputException e) {
            throw new BadInputException(job.named(e.getMessage(), in), e);
        } finally {
            if (!ok) {
                in.close();
            }
        }
    }

    /**
     * Where the outputs go, as {@code dsmscope ciat} / {@code cdat} name them from the trace set: beside a local
     * trace set (the path as given), in the current folder under the set's name for one read through Hadoop.
     */
    String outputBase() {
        TraceInput d = job.detailed;
        if (d.localPath != null) {
            return d.given.regionMatches(true, 0, "file:", 0, 5) ? d.localPath : d.given;
        }
        return Path.of(d.name()).toString();
    }

    /**
     * The problems the run continued past ({@code --skip-bad-records}), as the serial run lists them: the prescan's
     * (this driver's: each file's skipped records, once), then those partition 0's replay met in {@code run}'s last
     * job (every partition's engine meets the same, with the trace files' positions).
     */
    RunProblems problems(SparkRun run) {
        Outcome first = run.first();
        return RunProblems.of(replay.problems(), replay.problemCount(), first.problems, first.problemCount);
    }

    @Override
    public void close() {
        in.close();
    }
}
