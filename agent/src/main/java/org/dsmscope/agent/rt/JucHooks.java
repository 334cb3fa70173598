package org.dsmscope.agent.rt;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.dsmscope.agent.core.Addresses;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;
import org.dsmscope.trace.CallType;

/**
 * Level 1 entry points for {@code java.util.concurrent}'s hand-offs (issue 28, SPEC §3's acquire / release scheme,
 * extension types 23 / 24 with per-object sequence numbers), whose JDK code is not traced.
 *
 * <p>Executors: {@code submit} / {@code execute} hand the pool a {@link Task} that runs the program's task; the
 * submit is release 1 on the task object, the task's start in the worker acquire 1 (the replay starts the task
 * after its submit), its end release 2, and a return from {@code Future.get} (or an {@code ExecutionException}) an
 * acquire of the task's last release (the replay has the getter wait for the task's end).
 *
 * <p>Queues, deques and exchangers: {@link QueueHooks}.
 *
 * <p>Each hook performs the program's own call unchanged and records around it; recording never throws.
 */
public final class JucHooks {
    private JucHooks() {
    }

    /**
     * A task as the pool sees it: runs the program's {@code Runnable} or {@code Callable} between an acquire of its
     * submit and a release of its end, both on this object.
     */
    static final class Task implements Runnable, Callable<Object>, Supplier<Object> {
        private final Runnable runnable;
        private final Callable<?> callable;
        private final Supplier<?> supplier;
        /** Submitted by a traced thread, which records release 1. */
        private final boolean traced;
        /** The submitting thread's index (its own run of the task, a direct executor, acquires nothing). */
        private final int submitter;
        /** Sequence number of the last release on this task: 1 submitted (by a traced thread), 2 ended. */
        private volatile long last;
        /** A traced worker runs it: it numbers the end (release 2) as soon as the program's task returns. */
        private volatile boolean running;

        Task(Runnable runnable, Callable<?> callable, Supplier<?> supplier, boolean traced) {
            this.runnable = runnable;
            this.callable = callable;
            this.supplier = supplier;
            this.traced = traced;
            this.last = traced ? 1 : 0;
            this.submitter = traced ? TraceRuntime.current().index : -1;
        }

        @Override
        public void run() {
            long t0 = started();
            try {
                runnable.run();
            } finally {
                ended(t0);
            }
        }

        @Override
        public Object call() throws Exception {
            long t0 = started();
            try {
                return callable.call();
            } finally {
                ended(t0);
            }
        }

        @Override
        public Object get() {
            long t0 = started();
            try {
                return supplier.get();
            } finally {
                ended(t0);
            }
        }

        @Override
        public String toString() {
            return String.valueOf(runnable != null ? runnable : callable != null ? callable : supplier);
        }

        /** The task starts in a worker: an acquire of its submit. */
        long started() {
            ThreadTrace t = TraceRuntime.current();
            long t0 = TraceRuntime.now();
            if (traced && t.index != submitter) {
                record(t, CallType.SYNC_ACQUIRE, this, t0, 1);
            }
            running = t.traced;
            return TraceRuntime.now();
        }

        /** The task ends: release 2, numbered before the pool publishes its outcome. */
        void ended(long t0) {
            ThreadTrace t = TraceRuntime.current();
            if (t.traced) {
                last = 2;
                record(t, CallType.SYNC_RELEASE, this, t0, 2);
            }
        }

        /** Submitted by {@code t}: release 1, recorded after the pool took the task. */
        void submitted(ThreadTrace t, long t0) {
            if (traced) {
                record(t, CallType.SYNC_RELEASE, this, t0, 1);
            }
        }
    }

    /** A task for {@code r} submitted by {@code t}. */
    private static Task task(ThreadTrace t, Runnable r, Callable<?> c) {
        return new Task(r, c, null, t.traced);
    }

    /** Remembers that {@code f} completes with {@code task}, for {@link #get}. */
    static <F> F bind(F f, Object task) {
        try {
            if (f != null) {
                SyncState.of(f).task = task;
            }
        } catch (Throwable e) {
            // recording only
        }
        return f;
    }

    /** {@code e.execute(r)}; a {@code Future} passed as {@code r} (a {@code FutureTask}) is bound for {@code get}. */
    public static void execute(Executor e, Runnable r) {
        if (e == null || r == null) {
            e.execute(r);
            return;
        }
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        Task task = task(t, r, null);
        if (r instanceof Future) {
            bind(r, task);
        }
        e.execute(task);
        task.submitted(t, t0);
    }

    /** {@code e.submit(r)}. */
    public static Future<?> submit(ExecutorService e, Runnable r) {
        if (e == null || r == null) {
            return e.submit(r);
        }
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        Task task = task(t, r, null);
        Future<?> f = bind(e.submit((Runnable) task), task);
        task.submitted(t, t0);
        return f;
    }

    /** {@code e.submit(r, result)}. */
    public static Future<?> submit(ExecutorService e, Runnable r, Object result) {
        if (e == null || r == null) {
            return e.submit(r, result);
        }
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        Task task = task(t, r, null);
        Future<?> f = bind(e.submit((Runnable) task, result), task);
        task.submitted(t, t0);
        return f;
    }

    /** {@code e.submit(c)}. */
    public static Future<?> submit(ExecutorService e, Callable<?> c) {
        if (e == null || c == null) {
            return e.submit(c);
        }
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        Task task = task(t, null, c);
        Future<?> f = bind(e.submit((Callable<Object>) task), task);
        task.submitted(t, t0);
        return f;
    }

    /** {@code e.invokeAll(tasks)}: each task a {@link Task} (submit → start); its end → the return. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static List<Future<Object>> invokeAll(ExecutorService e, Collection<Callable<Object>> tasks)
            throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        List<Task> ts = wrapAll(t, e, tasks, t0);
        if (ts == null) {
            return e.invokeAll(tasks);
        }
        List<Future<Object>> fs = e.invokeAll((Collection) ts);
        allEnded(t, ts, fs, t0);
        return fs;
    }

    /** {@code e.invokeAll(tasks, time, unit)}: tasks cancelled at the timeout name what they were given. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static List<Future<Object>> invokeAll(ExecutorService e, Collection<Callable<Object>> tasks, long time,
            TimeUnit unit) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        List<Task> ts = wrapAll(t, e, tasks, t0);
        if (ts == null) {
            return e.invokeAll(tasks, time, unit);
        }
        List<Future<Object>> fs = e.invokeAll((Collection) ts, time, unit);
        allEnded(t, ts, fs, t0);
        return fs;
    }

    /** {@code e.invokeAny(tasks)}: the return (or failure) acquires the end of every task that ended by then. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Object invokeAny(ExecutorService e, Collection<Callable<Object>> tasks)
            throws InterruptedException, ExecutionException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        List<Task> ts = wrapAll(t, e, tasks, t0);
        if (ts == null) {
            return e.invokeAny(tasks);
        }
        try {
            return e.invokeAny((Collection) ts);
        } finally {
            anyEnded(t, ts, t0);
        }
    }

    /** {@code e.invokeAny(tasks, time, unit)}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Object invokeAny(ExecutorService e, Collection<Callable<Object>> tasks, long time, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        List<Task> ts = wrapAll(t, e, tasks, t0);
        if (ts == null) {
            return e.invokeAny(tasks, time, unit);
        }
        try {
            return e.invokeAny((Collection) ts, time, unit);
        } finally {
            anyEnded(t, ts, t0);
        }
    }

    /**
     * The tasks as {@link Task}s, each submitted (release 1) before the call; null (the program's own call, nothing
     * recorded) for a null pool, collection or task, whose exception the pool itself must throw.
     */
    private static List<Task> wrapAll(ThreadTrace t, ExecutorService e, Collection<Callable<Object>> tasks,
            long t0) {
        if (e == null || tasks == null) {
            return null;
        }
        List<Task> ts = new ArrayList<>(tasks.size());
        for (Callable<Object> c : tasks) {
            if (c == null) {
                return null;
            }
            ts.add(task(t, null, c));
        }
        for (Task task : ts) {
            task.submitted(t, t0);
        }
        return ts;
    }

    /** invokeAll returned: each future bound to its task, an acquire of each task's end (or of its last number). */
    private static void allEnded(ThreadTrace t, List<Task> ts, List<Future<Object>> fs, long t0) {
        for (int i = 0; i < ts.size() && i < fs.size(); i++) {
            Future<Object> f = fs.get(i);
            bind(f, ts.get(i));
            if (t.traced) {
                completed(t, ts.get(i), t0, !f.isCancelled());
            }
        }
    }

    /** invokeAny returned: an acquire of the end of each task that ended. */
    private static void anyEnded(ThreadTrace t, List<Task> ts, long t0) {
        for (Task task : ts) {
            if (task.last == 2) {
                record(t, CallType.SYNC_ACQUIRE, task, t0, 2);
            }
        }
    }

    /** {@code CompletableFuture.supplyAsync(s)}. */
    public static CompletableFuture<Object> supplyAsync(Supplier<Object> s) {
        return async(null, s, null, false);
    }

    /** {@code CompletableFuture.supplyAsync(s, e)}. */
    public static CompletableFuture<Object> supplyAsync(Supplier<Object> s, Executor e) {
        return async(null, s, e, true);
    }

    /** {@code CompletableFuture.runAsync(r)}. */
    @SuppressWarnings("unchecked")
    public static CompletableFuture<Void> runAsync(Runnable r) {
        return (CompletableFuture<Void>) (CompletableFuture<?>) async(r, null, null, false);
    }

    /** {@code CompletableFuture.runAsync(r, e)}. */
    @SuppressWarnings("unchecked")
    public static CompletableFuture<Void> runAsync(Runnable r, Executor e) {
        return (CompletableFuture<Void>) (CompletableFuture<?>) async(r, null, e, true);
    }

    /** {@code runAsync(r[, e])} or {@code supplyAsync(s[, e])} with a task between submit and completion. */
    @SuppressWarnings("unchecked")
    private static CompletableFuture<Object> async(Runnable r, Supplier<Object> s, Executor e, boolean withExecutor) {
        if (r == null && s == null) {
            CompletableFuture<?> f = withExecutor ? CompletableFuture.runAsync(r, e) : CompletableFuture.runAsync(r);
            return (CompletableFuture<Object>) f;
        }
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        Task task = new Task(r, null, s, t.traced);
        CompletableFuture<?> f;
        if (r != null) {
            f = withExecutor ? CompletableFuture.runAsync(task, e) : CompletableFuture.runAsync(task);
        } else {
            f = withExecutor ? CompletableFuture.supplyAsync(task, e) : CompletableFuture.supplyAsync(task);
        }
        bind(f, task);
        task.submitted(t, t0);
        return (CompletableFuture<Object>) f;
    }

    /** {@code f.join()} of a {@code CompletableFuture}. */
    public static Object join(CompletableFuture<?> f) {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        Object task = boundTask(t, f);
        try {
            Object v = f.join();
            completed(t, task, t0, true);
            return v;
        } catch (CompletionException ex) {
            completed(t, task, t0, true);
            throw ex;
        } catch (CancellationException ex) {
            completed(t, task, t0, false);
            throw ex;
        }
    }

    /** {@code f.get()}. */
    public static Object get(Future<?> f) throws InterruptedException, ExecutionException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        Object task = boundTask(t, f);
        try {
            Object v = f.get();
            completed(t, task, t0, true);
            return v;
        } catch (ExecutionException ex) {
            completed(t, task, t0, true);
            throw ex;
        } catch (CancellationException ex) {
            completed(t, task, t0, false);
            throw ex;
        }
    }

    /** {@code f.get(time, unit)}. */
    public static Object get(Future<?> f, long time, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        Object task = boundTask(t, f);
        try {
            Object v = f.get(time, unit);
            completed(t, task, t0, true);
            return v;
        } catch (ExecutionException ex) {
            completed(t, task, t0, true);
            throw ex;
        } catch (CancellationException ex) {
            completed(t, task, t0, false);
            throw ex;
        }
    }

    /** The task bound to {@code f} when a traced thread calls get (null: none); hands records over if it blocks. */
    private static Object boundTask(ThreadTrace t, Future<?> f) {
        if (f == null || !t.traced) {
            return null;
        }
        try {
            Object task = SyncState.of(f).task;
            if (task != null && !f.isDone()) {
                TraceRuntime.blocking(t);
            }
            return task;
        } catch (Throwable e) {
            return null;
        }
    }

    /**
     * A get returned: an acquire of the task's last release. When the task ran: its end, which a {@code FutureTask}
     * handed to {@code execute} publishes just before the task numbers it (the wait is that of the worker's few
     * instructions up to {@link Task#ended}); when it was cancelled, whatever was numbered.
     */
    static void completed(ThreadTrace t, Object bound, long t0, boolean ran) {
        if (bound instanceof CfHooks.Joint) {
            CfHooks.joined(t, (CfHooks.Joint) bound, t0);
            return;
        }
        if (!(bound instanceof Task)) {
            return;
        }
        Task task = (Task) bound;
        while (ran && task.running && task.last == 1) {
            Thread.onSpinWait();
        }
        if (task.last != 0) {
            record(t, CallType.SYNC_ACQUIRE, task, t0, task.last);
        }
    }

    private static void record(ThreadTrace t, int type, Object on, long t0, long seq) {
        if (!t.traced) {
            return;
        }
        try {
            t.call(type, t0, TraceRuntime.now(), Addresses.of(on, t), seq, 1, 0);
        } catch (Throwable e) {
            // recording only
        }
    }
}
