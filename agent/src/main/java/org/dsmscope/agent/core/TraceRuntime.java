package org.dsmscope.agent.core;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.OpenFiles;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import org.dsmscope.trace.sidecar.DataMap;
import org.dsmscope.trace.sidecar.SymbolFile;

/**
 * Global state of a traced run (seed 000 §2, SPEC §3): options, the clock, thread numbering (main = 0, others in
 * start order), the per-thread traces, and the end of the run (files finished, renamed to {@code NAME.p.t} and
 * listed as in seed 000 Figure 3).
 *
 * <p>Threading: {@link #LOCK} guards thread registration and the list of traces; it is held only for short
 * bookkeeping and file creation, never while application code runs. The shutdown hook finishes every trace,
 * including those of threads that are still running (see {@link ThreadTrace}).
 */
public final class TraceRuntime {
    private static final Object LOCK = new Object();
    private static final List<ThreadTrace> TRACES = new ArrayList<>();
    private static final Map<Thread, ThreadTrace> PENDING = new IdentityHashMap<>();
    private static final Map<Thread, Integer> INDEX = new IdentityHashMap<>();
    private static final Map<Thread, Boolean> AGENT_THREADS = new IdentityHashMap<>();
    private static final ThreadLocal<ThreadTrace> CURRENT = new ThreadLocal<>() {
        @Override
        protected ThreadTrace initialValue() {
            return bind(Thread.currentThread());
        }
    };

    /** Options of this run. */
    static AgentOptions options = new AgentOptions();
    /** Instrumentation level (0 before the agent starts). */
    public static int level;
    /** The JDK's {@code java.util} and {@code java.util.concurrent} classes are instrumented too ({@code jdk=true}). */
    public static boolean jdk;
    private static volatile boolean active;
    private static volatile boolean closing;
    private static volatile boolean stopAll;
    private static long t0Nanos = System.nanoTime();
    private static Thread mainThread;
    private static PrintStream err = System.err;
    /** Threads whose trace could not be written to its end (a full disk), and the first one's file and reason. */
    private static int incomplete;
    private static String firstIncomplete;

    /** A thread's trace lost its end: counted, and named at the end of the run. */
    public static synchronized void incomplete(String what) {
        if (incomplete++ == 0) {
            firstIncomplete = what;
        }
    }

    private static synchronized String incompleteSummary() {
        return incomplete == 0 ? null : "the traces of " + incomplete + " thread(s) are incomplete (the first, "
                + firstIncomplete + "): they end without an end record, and dsmscope ciat refuses them";
    }

    /** Threads left untraced because their trace file could not be set up, and the first one's reason. */
    private static int untraced;
    private static String firstUntraced;
    private static Path dataMapFile;
    /** The on-the-fly analysis sink (to_ciat), set by {@link Bootstrap}. */
    static org.dsmscope.agent.sink.AnalysisSink sink;
    /** to_ciat: the private directory the per-thread record streams spill to until the analysis reads them. */
    private static Path spillDir;
    /** to_ciat with a known thread count: the analysis that runs while the program runs (else null). */
    private static LiveRun live;
    private static boolean warnedUntraced;

    private TraceRuntime() {
    }

    /** The calling thread's trace ({@link ThreadTrace#UNTRACED} if not traced). */
    public static ThreadTrace current() {
        return CURRENT.get();
    }

    /**
     * With {@code jdk=true}: marks the calling thread as running the agent's own code, so that the JDK classes
     * instrumented for it ({@code rt.JdkMemHooks}) record nothing until {@link #leaveAgent}; returns the mark to
     * restore (agent code may nest). Without {@code jdk=true} it does nothing.
     */
    public static boolean enterAgent() {
        if (!jdk) {
            return false;
        }
        ThreadTrace t = current();
        boolean was = t.inHook;
        if (t.traced) {
            t.inHook = true;
        }
        return was;
    }

    /** Restores the mark {@link #enterAgent} returned. */
    public static void leaveAgent(boolean was) {
        if (jdk) {
            ThreadTrace t = current();
            if (t.traced) {
                t.inHook = was;
            }
        }
    }

    /** Microseconds since the agent started. */
    public static long now() {
        return (System.nanoTime() - t0Nanos) / 1000;
    }

    /** True once the agent traces. */
    public static boolean active() {
        return active;
    }

    /** Prints an agent diagnostic on the original standard error. */
    public static void warn(String msg) {
        err.println("dsmscope agent: " + msg);
    }

    /**
     * An on-the-fly analysis failed: says so ({@link #warn}), or, when {@code -Ddsmscope.analysis.status=FILE} is
     * set ({@code dsmscope trace} sets it), writes the one-line message to FILE instead, so that {@code dsmscope
     * trace} reports it and exits 2 after the program ends, whatever the program's own exit status.
     */
    static void analysisFailed(String msg) {
        String f = System.getProperty("dsmscope.analysis.status");
        if (f != null && !f.isEmpty()) {
            try {
                java.nio.file.Files.writeString(java.nio.file.Paths.get(f), msg + "\n");
                return;
            } catch (java.io.IOException | RuntimeException e) {
                warn("cannot write the analysis status file " + f + ": " + e.getMessage());
            }
        }
        warn(msg);
    }

    /** Starts tracing in the calling (main) thread; false if the first trace file cannot be created. */
    static boolean start(AgentOptions o) {
        options = o;
        level = o.level;
        jdk = o.jdk;
        t0Nanos = System.nanoTime();
        mainThread = Thread.currentThread();
        try {
            if (o.type != AgentOptions.Type.SUPPRESSED) {
                Path dir = Paths.get(o.name).toAbsolutePath().getParent();
                if (dir != null && !Files.isDirectory(dir)) {
                    warn("cannot write trace files " + o.name + ".*: no such directory " + dir + "; tracing is off");
                    return false;
                }
            }
            if (o.onTheFly()) {
                String refusal = o.threads <= 0 ? "" : o.calls != null && !o.calls.isEmpty()
                        ? "CALL_FILE_NAME: the call traces are matched against whole traces"
                        : sink.liveRefusal(o.analysisType(), o.analysisOptions, false);
                if (refusal == null) {
                    live = LiveRun.create(o, sink, err);
                } else {
                    if (!refusal.isEmpty()) {
                        warn(o.analysisType() + ": analysing at the end of the run: " + refusal);
                    }
                    spillDir = OnTheFly.spillDirectory(o.name);
                }
            }
            ThreadTrace main = newTrace(0);
            synchronized (LOCK) {
                TRACES.add(main);
                INDEX.put(mainThread, 0);
                if (live != null) {
                    for (Thread t : live.threads()) {
                        AGENT_THREADS.put(t, Boolean.TRUE);
                    }
                }
            }
            if (live != null) {
                live.begin();
            }
            active = true;
            CURRENT.set(main);
            if (level >= 2 && (o.type == AgentOptions.Type.NORMAL || o.type == AgentOptions.Type.COMPRESSED)) {
                dataMapFile = Paths.get(o.name + ".partial.datamap");
                Sidecars.openDataMap(dataMapFile);
            }
            return true;
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            warn("cannot write trace file " + partialName(0) + ": " + reason(e) + "; tracing is off");
            return false;
        }
    }

    /** Marks a thread as the agent's own (never traced). */
    static void agentThread(Thread t) {
        synchronized (LOCK) {
            AGENT_THREADS.put(t, Boolean.TRUE);
        }
    }

    /** The records of threads that filled no buffer since the last call go to the analysis (timer). */
    static void publishIdle() {
        List<ThreadTrace> all;
        synchronized (LOCK) {
            all = new ArrayList<>(TRACES);
        }
        for (ThreadTrace tt : all) {
            tt.publishIfIdle();
        }
    }

    /** A traced thread is about to block (join, wait, barrier, latch, semaphore): its records go to the analysis. */
    public static void blocking(ThreadTrace t) {
        if (live != null && t.traced) {
            try {
                t.publish();
            } catch (RuntimeException e) {
                // recording only
            }
        }
    }

    /**
     * A traced thread begins an untimed join of the running thread {@code target} at {@code start} µs: on the fly,
     * its records go to the analysis followed by the hint {@code CallType.LIVE_JOIN}, which lets the replay have it
     * wait and go on with the other threads before the join record exists (written when the join returns, after
     * the joined thread's records: without the hint the analysis could not pass this thread's clock until then).
     */
    public static void joining(ThreadTrace t, Thread target, long start) {
        if (live != null && t.traced) {
            try {
                int idx = indexOf(target);
                if (idx > 0) {
                    t.joinHint(idx, start);
                } else {
                    t.publish();
                }
            } catch (RuntimeException e) {
                // recording only
            }
        }
    }

    /** The trace files, open while written to: more threads than open files allowed still get theirs. */
    private static OpenFiles openFiles() {
        return FilePool.POOL;
    }

    /** Holder: the pool is made on first use (thread-safe class initialization). */
    private static final class FilePool {
        static final OpenFiles POOL = OpenFiles.forThisProcess();
    }

    /** What went wrong setting up a trace file, with the remedy for running out of direct memory. */
    private static String reason(Throwable e) {
        if (e instanceof OutOfMemoryError) {
            return "out of memory for its write buffer (" + e.getMessage() + "; give the program more, e.g. "
                    + "-XX:MaxDirectMemorySize=1g)";
        }
        return e.getMessage();
    }

    private static String partialName(int index) {
        if (spillDir != null) {
            return spillDir.resolve(index + ".smait").toString();
        }
        return options.name + ".partial." + index;
    }

    private static ThreadTrace newTrace(int index) throws IOException {
        TraceWriter w = null;
        Path file = null;
        OutputStream os = null;
        if (live != null) {
            os = live.stream(index);
            if (os == null) {
                return null;
            }
            file = Paths.get(TraceSet.fileName(options.name, options.threads, index));
            w = new TraceWriter(new StreamChannel(os), file.toString(),
                    new TraceWriter.Options().addr64(true).bufferBytes(1 << 18));
        } else if (options.type != AgentOptions.Type.SUPPRESSED) {
            file = Paths.get(partialName(index));
            TraceWriter.Options wo = new TraceWriter.Options().addr64(true)
                    .bufferBytes(index < OpenFiles.FULL_BUFFER_FILES ? 1 << 18 : OpenFiles.SMALL_BUFFER_BYTES);
            os = openFiles().create(file).outputStream();
            try {
                if (options.type == AgentOptions.Type.COMPRESSED || options.onTheFly()) {
                    os = Codec.parse(options.codec).encode(os);
                }
                w = new TraceWriter(new StreamChannel(os), file.toString(), wo);
            } catch (IOException | RuntimeException | OutOfMemoryError e) {
                os.close();
                Files.deleteIfExists(file);
                throw e;
            }
        }
        boolean detailed = level >= 2 && !stopAll;
        ThreadTrace tt = new ThreadTrace(index, file, w, os, detailed);
        long n = now();
        tt.call(CallType.START_TRACE, n, n, 0, 0, index, 0);
        if (live != null) {
            live.firstCall(index, n);
            tt.publish();
        }
        return tt;
    }

    private static ThreadTrace bind(Thread t) {
        if (!active) {
            return ThreadTrace.UNTRACED;
        }
        synchronized (LOCK) {
            ThreadTrace tt = PENDING.remove(t);
            return tt != null ? tt : ThreadTrace.UNTRACED;
        }
    }

    /** Thread.start of {@code child} in the calling thread: numbers the child and records a spawn. */
    public static void threadStarting(Thread child) {
        ThreadTrace parent = current();
        if (!parent.traced || closing || child.getState() != Thread.State.NEW) {
            return;
        }
        boolean was = enterAgent();
        try {
            register(parent, child);
        } finally {
            leaveAgent(was);
        }
    }

    private static void register(ThreadTrace parent, Thread child) {
        if (child.getClass().getName().equals("jdk.internal.misc.InnocuousThread")) {
            return;
        }
        ThreadGroup g = child.getThreadGroup();
        if (g != null && g.getParent() == null || startedByShutdown()) {
            return;
        }
        int idx;
        synchronized (LOCK) {
            if (AGENT_THREADS.containsKey(child) || PENDING.containsKey(child)) {
                return;
            }
            idx = TRACES.size();
            ThreadTrace tt;
            try {
                tt = newTrace(idx);
                if (tt == null) {
                    if (!warnedUntraced) {
                        warnedUntraced = true;
                        warn(options.analysisType() + ": threads=" + options.threads + ": thread " + idx + " (" + child.getName()
                                + ") and later threads are not traced");
                    }
                    return;
                }
            } catch (IOException | RuntimeException | OutOfMemoryError e) {
                if (untraced++ == 0) {
                    firstUntraced = "thread " + child.getName() + ": cannot write trace file " + partialName(idx)
                            + ": " + reason(e);
                    warn(firstUntraced + "; that thread is not traced (nor any later one whose file cannot be set up)");
                }
                return;
            }
            TRACES.add(tt);
            PENDING.put(child, tt);
            INDEX.put(child, idx);
        }
        long n = now();
        parent.call(CallType.SPAWN, n, n, idx, 1, idx, 0);
    }

    /** True if the JVM's shutdown sequence starts the thread (a shutdown hook: not traced). */
    private static boolean startedByShutdown() {
        // A stack trace rather than StackWalker's stream API: no stream or lambda classes to load at start-up.
        StackTraceElement[] st = Thread.currentThread().getStackTrace();
        for (int i = 0; i < st.length && i < 16; i++) {
            if (st[i].getClassName().equals("java.lang.ApplicationShutdownHooks")) {
                return true;
            }
        }
        return false;
    }

    /** The index of a traced thread, -1 if it is not traced. */
    public static int indexOf(Thread t) {
        synchronized (LOCK) {
            Integer i = INDEX.get(t);
            return i == null ? -1 : i;
        }
    }

    /** Thread termination (Thread.exit) in the terminating thread. */
    public static void threadExiting() {
        ThreadTrace tt = current();
        if (tt.traced) {
            boolean was = enterAgent();
            try {
                flushDataMap(tt);
                tt.threadEnded(now());
            } finally {
                leaveAgent(was);
            }
        }
    }

    /** Marker commands 1-4 (seed 000 A.1): stop / resume detailed tracing of this thread or of all threads. */
    public static void marker(ThreadTrace tt, int cmd) {
        if (level < 2) {
            return;
        }
        switch (cmd) {
            case 1:
                tt.stoppedSelf = true;
                tt.detailed = false;
                break;
            case 2:
                tt.stoppedSelf = false;
                tt.detailed = !stopAll;
                break;
            case 3:
            case 4:
                synchronized (LOCK) {
                    stopAll = cmd == 3;
                    for (ThreadTrace t : TRACES) {
                        t.detailed = !stopAll && !t.stoppedSelf;
                    }
                }
                break;
            default:
                break;
        }
    }

    /** A data map row for an object that just got an address; batched per thread. */
    public static void object(ThreadTrace tt, long addr, long size, Class<?> type, String site) {
        if (!Sidecars.dataMapOpen()) {
            return;
        }
        if (tt == null || !tt.traced) {
            Sidecars.objects(new long[] {addr}, new long[] {size}, new Class<?>[] {type}, new String[] {site}, 1);
            return;
        }
        if (tt.objAddr == null) {
            tt.objAddr = new long[ThreadTrace.OBJS];
            tt.objSize = new long[ThreadTrace.OBJS];
            tt.objType = new Class<?>[ThreadTrace.OBJS];
            tt.objSite = new String[ThreadTrace.OBJS];
        }
        int i = tt.nObj;
        tt.objAddr[i] = addr;
        tt.objSize[i] = size;
        tt.objType[i] = type;
        tt.objSite[i] = site;
        tt.nObj = i + 1;
        if (i + 1 == ThreadTrace.OBJS) {
            flushDataMap(tt);
        }
    }

    private static void flushDataMap(ThreadTrace tt) {
        int n = tt.nObj;
        if (n > 0) {
            Sidecars.objects(tt.objAddr, tt.objSize, tt.objType, tt.objSite, Math.min(n, ThreadTrace.OBJS));
            java.util.Arrays.fill(tt.objType, null);
            tt.nObj = 0;
        }
    }

    /** The end of the run: finishes every trace, renames the files to NAME.p.t and lists them. */
    static void shutdown() {
        if (!active || closing) {
            return;
        }
        closing = true;
        long n = now();
        List<ThreadTrace> all;
        synchronized (LOCK) {
            all = new ArrayList<>(TRACES);
        }
        for (ThreadTrace tt : all) {
            try {
                flushDataMap(tt);
            } catch (RuntimeException e) {
                // a still-running thread's builder changed under us: its last lines are lost
            }
            tt.finish(n);
        }
        int p = all.size();
        if (options.type == AgentOptions.Type.SUPPRESSED) {
            if (!options.quiet) {
                err.println("Trace output suppressed: " + p + " thread" + (p == 1 ? "" : "s")
                        + " traced, no trace files written (trace type suppressed)");
                err.flush();
            }
            return;
        }
        if (untraced > 0) {
            warn(untraced + " thread(s) were not traced, the first " + firstUntraced + "; the trace set holds the "
                    + p + " traced threads");
        }
        String lostEnds = incompleteSummary();
        if (lostEnds != null) {
            warn(lostEnds);
        }
        if (live != null) {
            live.finish(p, err);
            return;
        }
        if (options.onTheFly()) {
            List<Path> files = new ArrayList<>(p);
            for (ThreadTrace tt : all) {
                files.add(tt.file());
            }
            OnTheFly.analyse(sink, options, p, files, spillDir, err);
            return;
        }
        StringBuilder out = new StringBuilder("Trace output stored in:\n");
        for (ThreadTrace tt : all) {
            Path target = Paths.get(TraceSet.fileName(options.name, p, tt.index));
            try {
                Files.move(tt.file(), target, StandardCopyOption.REPLACE_EXISTING);
                out.append("\tfile ").append(target).append(" for thread ").append(tt.index).append('\n');
            } catch (IOException e) {
                warn("cannot rename " + tt.file() + " to " + target + ": " + e.getMessage());
            }
        }
        String prefix = options.name + "." + p;
        Sidecars.writeSymbols(SymbolFile.pathFor(prefix));
        if (dataMapFile != null) {
            try {
                Sidecars.closeDataMap();
                Files.move(dataMapFile, DataMap.pathFor(prefix), StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                warn("cannot write data map " + DataMap.pathFor(prefix) + ": " + e.getMessage());
            }
        }
        if (!options.quiet) {
            err.print(out);
            err.flush();
        }
    }
}
