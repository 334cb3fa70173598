package org.dsmscope.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.WorkProfile;
import org.dsmscope.trace.TraceSet;

/**
 * The problems a cluster run continued past ({@code --skip-bad-records}; replay/README.md "Partitioned replay",
 * skipping bad records): the driver's prescan's (each file's skipped records, once), then those partition 0's
 * replay met in its task, which every partition's engine meets alike; the list the serial run keeps (its first
 * {@value #KEEP}, in the order met) and their number.
 */
final class RunProblems {
    /** Problems kept in the list, as a replay keeps them. */
    static final int KEEP = 1000;
    private final List<String> list;
    private final long count;

    private RunProblems(List<String> list, long count) {
        this.list = Collections.unmodifiableList(list);
        this.count = count;
    }

    /**
     * The prescan's problems ({@code pre}, {@code preCount} of them) followed by the partition's ({@code part},
     * {@code partCount}), kept as one replay that met them all in that order keeps them.
     */
    static RunProblems of(List<String> pre, long preCount, List<String> part, long partCount) {
        List<String> all = new ArrayList<>(pre);
        // a replay keeps the first KEEP it meets: the partition's come after every one of the prescan's
        for (int i = 0; i < part.size() && all.size() < KEEP; i++) {
            all.add(part.get(i));
        }
        return new RunProblems(all, preCount + partCount);
    }

    /** The problems kept, in the order met. */
    List<String> list() {
        return list;
    }

    /** The number of problems (may exceed the list's size). */
    long count() {
        return count;
    }

    /** {@code c} with these problems: the context that the driver merges CDAT's partitions in. */
    ReplayContext context(ReplayContext c) {
        return new ReplayContext() {
            @Override
            public int threads() {
                return c.threads();
            }

            @Override
            public int processors() {
                return c.processors();
            }

            @Override
            public boolean interleaved() {
                return c.interleaved();
            }

            @Override
            public long processorBusy(int cpu) {
                return c.processorBusy(cpu);
            }

            @Override
            public TraceSet traces() {
                return c.traces();
            }

            @Override
            public boolean isSyncVariable(long address) {
                return c.isSyncVariable(address);
            }

            @Override
            public long clock(int thread) {
                return c.clock(thread);
            }

            @Override
            public int ioProcessors() {
                return c.ioProcessors();
            }

            @Override
            public int partition() {
                return c.partition();
            }

            @Override
            public int partitions() {
                return c.partitions();
            }

            @Override
            public boolean routed() {
                return c.routed();
            }

            @Override
            public boolean possibleSpin(int thread) {
                return c.possibleSpin(thread);
            }

            @Override
            public WorkProfile workProfile() {
                return c.workProfile();
            }

            @Override
            public int partitionOf(long address) {
                return c.partitionOf(address);
            }

            @Override
            public List<String> problems() {
                return list;
            }

            @Override
            public long problemCount() {
                return count;
            }
        };
    }
}
