package org.dsmscope.cluster;

import java.nio.file.Path;
import org.dsmscope.replay.Replay;
import org.dsmscope.trace.BadInputException;

/**
 * The driver's side of a cluster run (SPEC §4 "Partitioning"): the trace set opened here (where it lies, or copied
 * through Hadoop), one prescan as the serial command makes it (synchronization variables, call-time match, clock
 * skeleton, work profile) into the {@link Replay.Plan} that every task gets, and the replay that is the context of
 * the merge (threads, processors, problems).
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
        PartitionJob.Inputs in = job.open(run.hadoopConfiguration(), null);
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
