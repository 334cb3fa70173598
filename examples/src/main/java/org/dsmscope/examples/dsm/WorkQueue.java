package org.dsmscope.examples.dsm;

import java.nio.ByteBuffer;
import org.dsmscope.dsm.AssociativeSegment;
import org.dsmscope.dsm.Consistency;
import org.dsmscope.dsm.Dsm;
import org.dsmscope.dsm.DsmApp;
import org.dsmscope.dsm.Eventcount;
import org.dsmscope.dsm.Sequencer;
import org.dsmscope.dsm.SequentialSegment;

/**
 * A work queue on a sequential segment with a sequencer (seed 002 §3.1, §3.3): member 0 appends the tasks to an
 * in-order sequential segment; every member draws tickets from a sequencer (whose ticket master migrates to the
 * busiest requester), takes task number "ticket", and puts its result into an out-of-order associative segment.
 * Member 0 awaits every member's "done" and checks all results. Args: [tasks=200].
 */
public final class WorkQueue implements DsmApp {
    @Override
    public void run(Dsm dsm, String[] args) {
        String usage = "usage: WorkQueue [TASKS], 1 <= TASKS <= 1000000 (default 200)";
        DsmArgs.atMost(args, 1, usage);
        int tasks = DsmArgs.integer(args, 0, "TASKS", 200, 1, 1_000_000, usage);
        int p = dsm.members();
        SequentialSegment queue = dsm.createSequential(Consistency.release());
        AssociativeSegment results = dsm.createAssociative(Consistency.release().outOfOrder());
        Sequencer next = dsm.createSequencer();
        Eventcount joined = dsm.createEvent();
        Eventcount ready = dsm.createEvent();
        Eventcount done = dsm.createEvent();
        Eventcount checked = dsm.createEvent();
        dsm.needUpdates(queue);
        if (dsm.rank() == 0) {
            dsm.needUpdates(results);
        }
        dsm.advance(joined);
        dsm.await(joined, p);
        if (dsm.rank() == 0) {
            for (int k = 0; k < tasks; k++) {
                queue.append(ByteBuffer.allocate(8).putLong(1000 + k).array());
            }
            dsm.putUpdates(queue);
            dsm.advance(ready);
        }
        dsm.await(ready, 1);
        int mine = 0;
        while (true) {
            long t = dsm.getTicket(next);
            if (t >= tasks) {
                break;
            }
            byte[] item = queue.get((int) t);
            if (item == null) {
                dsm.getUpdates(queue);
                item = queue.get((int) t);
            }
            if (item == null) {
                throw new IllegalStateException("WorkQueue m" + dsm.rank() + ": task " + t + " not visible");
            }
            long k = ByteBuffer.wrap(item).getLong();
            results.put("t" + t, ByteBuffer.allocate(8).putLong(work(k)).array());
            mine++;
            if (mine % 8 == 0) {
                dsm.putUpdates(results);
            }
        }
        dsm.putUpdates(results);
        dsm.advance(done);
        System.out.printf("WorkQueue m%d: did %d tasks%n", dsm.rank(), mine);
        if (dsm.rank() == 0) {
            dsm.await(done, p);
            dsm.getUpdates(results);
            for (int t = 0; t < tasks; t++) {
                byte[] v = results.get("t" + t);
                if (v == null || ByteBuffer.wrap(v).getLong() != work(1000 + t)) {
                    throw new IllegalStateException("WorkQueue: result of task " + t + " missing or wrong");
                }
            }
            System.out.printf("WorkQueue m0: %d tasks on %d members, results ok%n", tasks, p);
            dsm.advance(checked);
        }
        dsm.await(checked, 1); // nobody leaves before member 0 has checked
    }

    /** The work of one task. */
    static long work(long k) {
        long s = 0;
        for (long i = 1; i <= k * 5000; i++) {
            s += i * i % 97;
        }
        return s;
    }
}
