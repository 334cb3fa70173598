package org.dsmscope.agent.rt;

import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinTask;
import org.dsmscope.agent.core.Addresses;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;
import org.dsmscope.trace.CallType;

/**
 * Entry points that the patched {@code ForkJoinTask} and {@code CountedCompleter} call (issue 28: fork / join
 * structure, also of parallel streams, whose tasks the JDK creates, forks and joins in its own code; SPEC §3's
 * acquire / release scheme on the task object, extension types 23 / 24). Numbers on a task count 1, 2, 3 … over all
 * threads: {@code fork()} numbers a release on the task before the push, the task's run ({@code doExec}) acquires
 * it, the end of a plain task's {@code exec()} numbers a release on the task (before the task is marked done), a
 * {@code CountedCompleter}'s {@code tryComplete}, {@code propagateCompletion}, {@code complete} and {@code
 * quietlyCompleteRoot} number a release on the root of its tree (before they can complete it), and a return from
 * {@code join}, {@code invoke}, {@code get}, {@code quietlyJoin}, {@code quietlyInvoke} or {@code invokeAll}
 * acquires every number the task was given by then but the caller's own fork: the joiner waits for each task of
 * the tree that ended, not only for the last one.
 *
 * <p>Each hook runs inside the JDK's method, records only and never throws.
 */
public final class ForkJoinHooks {
    private ForkJoinHooks() {
    }

    /** {@code task.fork()} begins: a release on the task, before the push makes it runnable elsewhere. */
    public static void forking(ForkJoinTask<?> task) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced || task == null) {
            return;
        }
        try {
            SyncState st = SyncState.of(task);
            long s = st.nextRelease();
            st.forkedBy = t.index + 1;
            st.forked = s;
            record(t, CallType.SYNC_RELEASE, task, s);
        } catch (Throwable e) {
            // recording only
        }
    }

    /** {@code task.doExec()} begins: an acquire of its fork (nothing if no traced thread forked it). */
    public static void executing(ForkJoinTask<?> task) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced || task == null) {
            return;
        }
        try {
            SyncState st = SyncState.of(task);
            long s = st.forked;
            if (s != 0 && st.forkedBy != t.index + 1) {
                record(t, CallType.SYNC_ACQUIRE, task, s);
            }
        } catch (Throwable e) {
            // recording only
        }
    }

    /** A plain task's {@code exec()} returned in {@code doExec}: a release on it (a completer: its tryComplete). */
    public static void executed(ForkJoinTask<?> task) {
        if (task instanceof CountedCompleter) {
            return;
        }
        released(task);
    }

    /** A completer reports its end ({@code tryComplete} …): a release on its tree's root. */
    public static void completing(CountedCompleter<?> c) {
        if (c != null) {
            released(c.getRoot());
        }
    }

    /** {@code task.join()} (invoke, get, quietly…) returned: an acquire of each release on it but the own fork. */
    public static void joined(ForkJoinTask<?> task) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced || task == null) {
            return;
        }
        try {
            SyncState st = SyncState.of(task);
            long last = st.lastRelease();
            long own = st.forkedBy == t.index + 1 ? st.forked : 0;
            for (long s = 1; s <= last; s++) {
                if (s != own) {
                    record(t, CallType.SYNC_ACQUIRE, task, s);
                }
            }
        } catch (Throwable e) {
            // recording only
        }
    }

    /** {@code ForkJoinTask.invokeAll(a, b)} returned. */
    public static void joinedBoth(ForkJoinTask<?> a, ForkJoinTask<?> b) {
        joined(a);
        joined(b);
    }

    /** {@code ForkJoinTask.invokeAll(tasks...)} returned. */
    public static void joinedAll(ForkJoinTask<?>[] tasks) {
        if (tasks != null) {
            for (ForkJoinTask<?> task : tasks) {
                joined(task);
            }
        }
    }

    private static void released(ForkJoinTask<?> task) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced || task == null) {
            return;
        }
        try {
            record(t, CallType.SYNC_RELEASE, task, SyncState.of(task).nextRelease());
        } catch (Throwable e) {
            // recording only
        }
    }

    private static void record(ThreadTrace t, int type, Object on, long seq) {
        long now = TraceRuntime.now();
        t.call(type, now, now, Addresses.of(on, t), seq, 1, 0);
    }
}
