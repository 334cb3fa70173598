package org.dsmscope.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * The threads of a partitioned run (SPEC §4 "Partitioning", module README "Partitioned replay"): partition 0 on the
 * calling thread, partitions 1 .. parts-1 and the helpers (a routed run's routers) on threads of their own. Each
 * partition's replay and analysis are made on the thread that runs them: objects made one after the other by one
 * thread lie side by side, and two threads writing fields in one cache line slow each other down on every record.
 */
final class PartitionThreads {
    private PartitionThreads() {
    }

    /**
     * Runs {@code part.apply(k)} for every partition k (it makes, runs and returns partition k's analysis) and the
     * {@code helpers} (or none) beside them; a failure calls {@code abort} (once per failure), so that no part waits
     * for one that failed. Once all have ended, rethrows the first failure (the one that failed first; failures
     * caused by the abort come after it), else returns the analyses in partition order.
     */
    static <A> List<A> run(int parts, IntFunction<A> part, Runnable[] helpers, Runnable abort) {
        Object[] made = new Object[parts];
        int nh = helpers == null ? 0 : helpers.length;
        Throwable[] failed = new Throwable[nh + parts];
        AtomicInteger firstFailed = new AtomicInteger(-1);
        List<Thread> others = new ArrayList<>();
        for (int i = 0; i < nh + parts; i++) {
            if (i == nh) {
                continue; // partition 0: the calling thread
            }
            int slot = i;
            Runnable job = i < nh ? helpers[i] : () -> made[slot - nh] = part.apply(slot - nh);
            Thread t = new Thread(() -> {
                try {
                    job.run();
                } catch (Throwable e) {
                    failed[slot] = e;
                    firstFailed.compareAndSet(-1, slot);
                    abort.run();
                }
            }, i < nh ? "dsmscope-router-" + i : "dsmscope-replay-partition-" + (i - nh));
            t.setDaemon(true);
            others.add(t);
            t.start();
        }
        try {
            made[0] = part.apply(0);
        } catch (Throwable e) {
            failed[nh] = e;
            firstFailed.compareAndSet(-1, nh);
            abort.run();
        }
        for (Thread t : others) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the replay partitions", e);
            }
        }
        int first = firstFailed.get();
        if (first >= 0) {
            // a routed run: the part that failed first caused the others' failures (their pipes were aborted)
            rethrow(failed[first]);
        }
        for (Throwable e : failed) {
            if (e != null) {
                rethrow(e);
            }
        }
        List<A> out = new ArrayList<>();
        for (Object a : made) {
            @SuppressWarnings("unchecked")
            A x = (A) a;
            out.add(x);
        }
        return out;
    }

    private static void rethrow(Throwable e) {
        if (e instanceof RuntimeException) {
            throw (RuntimeException) e;
        } else if (e instanceof Error) {
            throw (Error) e;
        }
        throw new IllegalStateException(e);
    }
}
