package org.dsmscope.agent.rt;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;

/**
 * Level 1 entry points for {@code CompletableFuture}'s dependants and completions (issue 28, SPEC §3's acquire /
 * release scheme on {@link JucHooks.Task} objects, extension types 23 / 24): a dependant ({@code thenApply},
 * {@code thenAccept}, {@code thenRun}, {@code thenCombine}, {@code thenAcceptBoth}, {@code runAfterBoth}, the
 * {@code Either} forms, {@code handle}, {@code whenComplete}, {@code thenCompose}, {@code exceptionally}, each also
 * {@code Async} with and without an executor) gets a {@link Stage} that runs the program's function as a task:
 * release 1 by the caller before the call (the function may run at once, in the caller), acquire 1 where it runs
 * (in another thread), an acquire of each completed source's last release, release 2 when the function returns;
 * the dependent future is bound to the stage, so its {@code get} / {@code join} and its own dependants wait for
 * the function's end ({@code thenCompose}: also for the composed future). {@code complete(v)} and {@code
 * completeExceptionally(x)} by a traced thread number a release before they complete the future; {@code allOf} and
 * {@code anyOf} bind their future to their sources ({@link Joint}): a getter waits for each source that completed.
 * Calls through the {@code CompletionStage} type reach these hooks through {@link StageHooks}.
 *
 * <p>Each hook performs the program's own call unchanged and records around it; recording never throws.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
public final class CfHooks {
    /** How deep {@link #joined} follows futures bound to futures (allOf of allOf …). */
    private static final int DEPTH = 8;

    private CfHooks() {
    }

    /** A future completed by others: {@code allOf} / {@code anyOf}'s sources, or a stage and what it composed. */
    static final class Joint {
        final Object[] parts;

        Joint(Object[] parts) {
            this.parts = parts;
        }
    }

    /** The program's function of a dependant, run as a task between the acquires of its sources and its end. */
    static final class Stage implements Function, Consumer, BiConsumer, Runnable {
        private final Object fn;
        private final CompletableFuture<?> a;
        private final Object b;
        final JucHooks.Task task;
        /** What the function returned (thenCompose: the future the dependant completes with). */
        volatile Object composed;

        Stage(Object fn, CompletableFuture<?> a, Object b, JucHooks.Task task) {
            this.fn = fn;
            this.a = a;
            this.b = b;
            this.task = task;
        }

        @Override
        public Object apply(Object x) {
            long t0 = begin();
            try {
                Object r = ((Function) fn).apply(x);
                composed = r;
                return r;
            } finally {
                task.ended(t0);
            }
        }

        /** This stage as a {@code BiFunction} (whose {@code andThen} clashes with {@code Function}'s). */
        BiFunction bi() {
            return new BiFunction() {
                @Override
                public Object apply(Object x, Object y) {
                    return apply2(x, y);
                }

                @Override
                public String toString() {
                    return String.valueOf(fn);
                }
            };
        }

        Object apply2(Object x, Object y) {
            long t0 = begin();
            try {
                return ((BiFunction) fn).apply(x, y);
            } finally {
                task.ended(t0);
            }
        }

        @Override
        public void accept(Object x) {
            long t0 = begin();
            try {
                ((Consumer) fn).accept(x);
            } finally {
                task.ended(t0);
            }
        }

        @Override
        public void accept(Object x, Object y) {
            long t0 = begin();
            try {
                ((BiConsumer) fn).accept(x, y);
            } finally {
                task.ended(t0);
            }
        }

        @Override
        public void run() {
            long t0 = begin();
            try {
                ((Runnable) fn).run();
            } finally {
                task.ended(t0);
            }
        }

        @Override
        public String toString() {
            return String.valueOf(fn);
        }

        /** The function starts: its submit, then each completed source's completion. */
        private long begin() {
            long t0 = task.started();
            ThreadTrace t = TraceRuntime.current();
            if (t.traced) {
                source(t, a, t0);
                source(t, b, t0);
            }
            return t0;
        }
    }

    /** A completed source {@code f}: an acquire of what completed it (nothing for an unfinished one). */
    private static void source(ThreadTrace t, Object f, long t0) {
        try {
            if (f instanceof CompletableFuture && ((CompletableFuture<?>) f).isDone()) {
                JucHooks.completed(t, SyncState.of(f).task, t0, true);
            }
        } catch (Throwable e) {
            // recording only
        }
    }

    /** A get or join of a future bound to {@code j} returned: an acquire of each completed part. */
    static void joined(ThreadTrace t, Joint j, long t0) {
        joined(t, j, t0, 0);
    }

    private static void joined(ThreadTrace t, Joint j, long t0, int depth) {
        for (Object p : j.parts) {
            Object part = p instanceof Stage ? ((Stage) p).composed : p;
            if (part instanceof JucHooks.Task) {
                JucHooks.completed(t, part, t0, true);
            } else if (part instanceof CompletableFuture && ((CompletableFuture<?>) part).isDone()) {
                Object bound = SyncState.of(part).task;
                if (bound instanceof Joint) {
                    if (depth < DEPTH) {
                        joined(t, (Joint) bound, t0, depth + 1);
                    }
                } else {
                    JucHooks.completed(t, bound, t0, true);
                }
            }
        }
    }

    /** A stage for {@code fn} on {@code f} (and {@code other}), submitted; null for a null argument (the JDK throws). */
    private static Stage stage(CompletableFuture<?> f, Object other, Object fn) {
        if (f == null || fn == null) {
            return null;
        }
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        JucHooks.Task task = new JucHooks.Task(null, null, null, t.traced);
        task.submitted(t, t0);
        return new Stage(fn, f, other, task);
    }

    /** The dependent future {@code g} completes with the stage's end. */
    private static CompletableFuture bound(CompletableFuture g, Stage s) {
        return s == null ? g : JucHooks.bind(g, s.task);
    }

    /** thenCompose's dependent completes with the future the function returned, after the function's end. */
    private static CompletableFuture composed(CompletableFuture g, Stage s) {
        return s == null ? g : JucHooks.bind(g, new Joint(new Object[] {s.task, s}));
    }

    /** {@code f.thenApply(...)}. */
    public static CompletableFuture thenApply(CompletableFuture f, Function fn) {
        Stage s = stage(f, null, fn);
        return bound(f.thenApply(s == null ? fn : s), s);
    }

    /** {@code f.thenApplyAsync(...)}. */
    public static CompletableFuture thenApplyAsync(CompletableFuture f, Function fn) {
        Stage s = stage(f, null, fn);
        return bound(f.thenApplyAsync(s == null ? fn : s), s);
    }

    /** {@code f.thenApplyAsync(...)}. */
    public static CompletableFuture thenApplyAsync(CompletableFuture f, Function fn, Executor e) {
        Stage s = stage(f, null, fn);
        return bound(f.thenApplyAsync(s == null ? fn : s, e), s);
    }

    /** {@code f.thenAccept(...)}. */
    public static CompletableFuture thenAccept(CompletableFuture f, Consumer fn) {
        Stage s = stage(f, null, fn);
        return bound(f.thenAccept(s == null ? fn : s), s);
    }

    /** {@code f.thenAcceptAsync(...)}. */
    public static CompletableFuture thenAcceptAsync(CompletableFuture f, Consumer fn) {
        Stage s = stage(f, null, fn);
        return bound(f.thenAcceptAsync(s == null ? fn : s), s);
    }

    /** {@code f.thenAcceptAsync(...)}. */
    public static CompletableFuture thenAcceptAsync(CompletableFuture f, Consumer fn, Executor e) {
        Stage s = stage(f, null, fn);
        return bound(f.thenAcceptAsync(s == null ? fn : s, e), s);
    }

    /** {@code f.thenRun(...)}. */
    public static CompletableFuture thenRun(CompletableFuture f, Runnable fn) {
        Stage s = stage(f, null, fn);
        return bound(f.thenRun(s == null ? fn : s), s);
    }

    /** {@code f.thenRunAsync(...)}. */
    public static CompletableFuture thenRunAsync(CompletableFuture f, Runnable fn) {
        Stage s = stage(f, null, fn);
        return bound(f.thenRunAsync(s == null ? fn : s), s);
    }

    /** {@code f.thenRunAsync(...)}. */
    public static CompletableFuture thenRunAsync(CompletableFuture f, Runnable fn, Executor e) {
        Stage s = stage(f, null, fn);
        return bound(f.thenRunAsync(s == null ? fn : s, e), s);
    }

    /** {@code f.thenCombine(...)}. */
    public static CompletableFuture thenCombine(CompletableFuture f, CompletionStage other, BiFunction fn) {
        Stage s = stage(f, other, fn);
        return bound(f.thenCombine(other, s == null ? fn : s.bi()), s);
    }

    /** {@code f.thenCombineAsync(...)}. */
    public static CompletableFuture thenCombineAsync(CompletableFuture f, CompletionStage other, BiFunction fn) {
        Stage s = stage(f, other, fn);
        return bound(f.thenCombineAsync(other, s == null ? fn : s.bi()), s);
    }

    /** {@code f.thenCombineAsync(...)}. */
    public static CompletableFuture thenCombineAsync(CompletableFuture f, CompletionStage other, BiFunction fn, Executor e) {
        Stage s = stage(f, other, fn);
        return bound(f.thenCombineAsync(other, s == null ? fn : s.bi(), e), s);
    }

    /** {@code f.thenAcceptBoth(...)}. */
    public static CompletableFuture thenAcceptBoth(CompletableFuture f, CompletionStage other, BiConsumer fn) {
        Stage s = stage(f, other, fn);
        return bound(f.thenAcceptBoth(other, s == null ? fn : s), s);
    }

    /** {@code f.thenAcceptBothAsync(...)}. */
    public static CompletableFuture thenAcceptBothAsync(CompletableFuture f, CompletionStage other, BiConsumer fn) {
        Stage s = stage(f, other, fn);
        return bound(f.thenAcceptBothAsync(other, s == null ? fn : s), s);
    }

    /** {@code f.thenAcceptBothAsync(...)}. */
    public static CompletableFuture thenAcceptBothAsync(CompletableFuture f, CompletionStage other, BiConsumer fn, Executor e) {
        Stage s = stage(f, other, fn);
        return bound(f.thenAcceptBothAsync(other, s == null ? fn : s, e), s);
    }

    /** {@code f.runAfterBoth(...)}. */
    public static CompletableFuture runAfterBoth(CompletableFuture f, CompletionStage other, Runnable fn) {
        Stage s = stage(f, other, fn);
        return bound(f.runAfterBoth(other, s == null ? fn : s), s);
    }

    /** {@code f.runAfterBothAsync(...)}. */
    public static CompletableFuture runAfterBothAsync(CompletableFuture f, CompletionStage other, Runnable fn) {
        Stage s = stage(f, other, fn);
        return bound(f.runAfterBothAsync(other, s == null ? fn : s), s);
    }

    /** {@code f.runAfterBothAsync(...)}. */
    public static CompletableFuture runAfterBothAsync(CompletableFuture f, CompletionStage other, Runnable fn, Executor e) {
        Stage s = stage(f, other, fn);
        return bound(f.runAfterBothAsync(other, s == null ? fn : s, e), s);
    }

    /** {@code f.applyToEither(...)}. */
    public static CompletableFuture applyToEither(CompletableFuture f, CompletionStage other, Function fn) {
        Stage s = stage(f, other, fn);
        return bound(f.applyToEither(other, s == null ? fn : s), s);
    }

    /** {@code f.applyToEitherAsync(...)}. */
    public static CompletableFuture applyToEitherAsync(CompletableFuture f, CompletionStage other, Function fn) {
        Stage s = stage(f, other, fn);
        return bound(f.applyToEitherAsync(other, s == null ? fn : s), s);
    }

    /** {@code f.applyToEitherAsync(...)}. */
    public static CompletableFuture applyToEitherAsync(CompletableFuture f, CompletionStage other, Function fn, Executor e) {
        Stage s = stage(f, other, fn);
        return bound(f.applyToEitherAsync(other, s == null ? fn : s, e), s);
    }

    /** {@code f.acceptEither(...)}. */
    public static CompletableFuture acceptEither(CompletableFuture f, CompletionStage other, Consumer fn) {
        Stage s = stage(f, other, fn);
        return bound(f.acceptEither(other, s == null ? fn : s), s);
    }

    /** {@code f.acceptEitherAsync(...)}. */
    public static CompletableFuture acceptEitherAsync(CompletableFuture f, CompletionStage other, Consumer fn) {
        Stage s = stage(f, other, fn);
        return bound(f.acceptEitherAsync(other, s == null ? fn : s), s);
    }

    /** {@code f.acceptEitherAsync(...)}. */
    public static CompletableFuture acceptEitherAsync(CompletableFuture f, CompletionStage other, Consumer fn, Executor e) {
        Stage s = stage(f, other, fn);
        return bound(f.acceptEitherAsync(other, s == null ? fn : s, e), s);
    }

    /** {@code f.runAfterEither(...)}. */
    public static CompletableFuture runAfterEither(CompletableFuture f, CompletionStage other, Runnable fn) {
        Stage s = stage(f, other, fn);
        return bound(f.runAfterEither(other, s == null ? fn : s), s);
    }

    /** {@code f.runAfterEitherAsync(...)}. */
    public static CompletableFuture runAfterEitherAsync(CompletableFuture f, CompletionStage other, Runnable fn) {
        Stage s = stage(f, other, fn);
        return bound(f.runAfterEitherAsync(other, s == null ? fn : s), s);
    }

    /** {@code f.runAfterEitherAsync(...)}. */
    public static CompletableFuture runAfterEitherAsync(CompletableFuture f, CompletionStage other, Runnable fn, Executor e) {
        Stage s = stage(f, other, fn);
        return bound(f.runAfterEitherAsync(other, s == null ? fn : s, e), s);
    }

    /** {@code f.handle(...)}. */
    public static CompletableFuture handle(CompletableFuture f, BiFunction fn) {
        Stage s = stage(f, null, fn);
        return bound(f.handle(s == null ? fn : s.bi()), s);
    }

    /** {@code f.handleAsync(...)}. */
    public static CompletableFuture handleAsync(CompletableFuture f, BiFunction fn) {
        Stage s = stage(f, null, fn);
        return bound(f.handleAsync(s == null ? fn : s.bi()), s);
    }

    /** {@code f.handleAsync(...)}. */
    public static CompletableFuture handleAsync(CompletableFuture f, BiFunction fn, Executor e) {
        Stage s = stage(f, null, fn);
        return bound(f.handleAsync(s == null ? fn : s.bi(), e), s);
    }

    /** {@code f.whenComplete(...)}. */
    public static CompletableFuture whenComplete(CompletableFuture f, BiConsumer fn) {
        Stage s = stage(f, null, fn);
        return bound(f.whenComplete(s == null ? fn : s), s);
    }

    /** {@code f.whenCompleteAsync(...)}. */
    public static CompletableFuture whenCompleteAsync(CompletableFuture f, BiConsumer fn) {
        Stage s = stage(f, null, fn);
        return bound(f.whenCompleteAsync(s == null ? fn : s), s);
    }

    /** {@code f.whenCompleteAsync(...)}. */
    public static CompletableFuture whenCompleteAsync(CompletableFuture f, BiConsumer fn, Executor e) {
        Stage s = stage(f, null, fn);
        return bound(f.whenCompleteAsync(s == null ? fn : s, e), s);
    }

    /** {@code f.thenCompose(...)}. */
    public static CompletableFuture thenCompose(CompletableFuture f, Function fn) {
        Stage s = stage(f, null, fn);
        return composed(f.thenCompose(s == null ? fn : s), s);
    }

    /** {@code f.thenComposeAsync(...)}. */
    public static CompletableFuture thenComposeAsync(CompletableFuture f, Function fn) {
        Stage s = stage(f, null, fn);
        return composed(f.thenComposeAsync(s == null ? fn : s), s);
    }

    /** {@code f.thenComposeAsync(...)}. */
    public static CompletableFuture thenComposeAsync(CompletableFuture f, Function fn, Executor e) {
        Stage s = stage(f, null, fn);
        return composed(f.thenComposeAsync(s == null ? fn : s, e), s);
    }

    /** {@code f.exceptionally(...)}. */
    public static CompletableFuture exceptionally(CompletableFuture f, Function fn) {
        Stage s = stage(f, null, fn);
        return bound(f.exceptionally(s == null ? fn : s), s);
    }

    /** {@code f.exceptionallyAsync(...)}. */
    public static CompletableFuture exceptionallyAsync(CompletableFuture f, Function fn) {
        Stage s = stage(f, null, fn);
        return bound(f.exceptionallyAsync(s == null ? fn : s), s);
    }

    /** {@code f.exceptionallyAsync(...)}. */
    public static CompletableFuture exceptionallyAsync(CompletableFuture f, Function fn, Executor e) {
        Stage s = stage(f, null, fn);
        return bound(f.exceptionallyAsync(s == null ? fn : s, e), s);
    }

    /** {@code CompletableFuture.allOf(fs)}: its getters wait for every source. */
    public static CompletableFuture allOf(CompletableFuture[] fs) {
        CompletableFuture g = CompletableFuture.allOf(fs);
        return fs == null ? g : JucHooks.bind(g, new Joint(fs.clone()));
    }

    /** {@code CompletableFuture.anyOf(fs)}: its getters wait for the sources that completed. */
    public static CompletableFuture anyOf(CompletableFuture[] fs) {
        CompletableFuture g = CompletableFuture.anyOf(fs);
        return fs == null ? g : JucHooks.bind(g, new Joint(fs.clone()));
    }

    /** {@code f.complete(v)}. */
    public static boolean complete(CompletableFuture f, Object v) {
        Object old = completing(f);
        boolean ok = f.complete(v);
        restore(f, old, ok);
        return ok;
    }

    /** {@code f.completeExceptionally(x)}. */
    public static boolean completeExceptionally(CompletableFuture f, Throwable x) {
        Object old = completing(f);
        boolean ok = f.completeExceptionally(x);
        restore(f, old, ok);
        return ok;
    }

    /**
     * A traced thread is about to complete {@code f}: a new completion bound to it, released (number 2) before the
     * value is visible. Returns the previous binding (the state itself when nothing was bound or recorded).
     */
    private static Object completing(CompletableFuture<?> f) {
        ThreadTrace t = TraceRuntime.current();
        if (f == null || !t.traced || f.isDone()) {
            return NOTHING;
        }
        try {
            SyncState st = SyncState.of(f);
            Object old = st.task;
            JucHooks.Task c = new JucHooks.Task(null, null, null, false);
            st.task = c;
            c.ended(TraceRuntime.now());
            return old;
        } catch (Throwable e) {
            return NOTHING;
        }
    }

    /** The completion lost the race (the future was already complete): the binding it had. */
    private static void restore(CompletableFuture<?> f, Object old, boolean ok) {
        if (!ok && old != NOTHING) {
            try {
                SyncState.of(f).task = old;
            } catch (Throwable e) {
                // recording only
            }
        }
    }

    private static final Object NOTHING = new Object();
}
