package org.dsmscope.agent.core;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;
import java.util.ServiceConfigurationError;
import org.dsmscope.agent.instrument.Transformer;
import org.dsmscope.agent.instrument.VarHandles;
import org.dsmscope.agent.sink.AnalysisSink;

/**
 * Starts the agent inside the bootstrap class loader (seed 000 §2): parses the options, sets up layouts and the
 * run's traces, lets {@code java.base} read the agent's hooks, installs the transformer, patches
 * {@code java.lang.Thread} and registers the shutdown hook that finishes every trace. A bad option stops the JVM
 * with one line and status 2; a trace that cannot be written leaves the program running untraced.
 */
public final class Bootstrap {
    private Bootstrap() {
    }

    /** {@code -Ddsmscope.spill.keep}: keep the records an on-the-fly analysis read (agent/README.md). */
    static final String SPILL_KEEP = "dsmscope.spill.keep";
    /** {@code -Ddsmscope.live.backpressure}: {@code false} lets producers spill instead of waiting. */
    static final String BACKPRESSURE = "dsmscope.live.backpressure";
    /** {@code -Ddsmscope.live.budget}: bytes of records held in memory for the analysis. */
    static final String BUDGET = "dsmscope.live.budget";
    /** {@code -Ddsmscope.live.flushMs}: milliseconds between hand-overs of the records. */
    static final String FLUSH_MS = "dsmscope.live.flushMs";
    /** {@code -Ddsmscope.agent.timing}: print the start-up times. */
    static final String TIMING = "dsmscope.agent.timing";

    /**
     * Reads the agent's {@code -Ddsmscope.*} properties once, so that a malformed one is refused before the program
     * runs (one line, status 2) rather than where it is first used.
     */
    static void checkProperties() {
        org.dsmscope.trace.SystemProperties.booleanValue(SPILL_KEEP, false);
        org.dsmscope.trace.SystemProperties.booleanValue(BACKPRESSURE, true);
        org.dsmscope.trace.SystemProperties.longValue(BUDGET, 0, 0, Long.MAX_VALUE);
        org.dsmscope.trace.SystemProperties.longValue(FLUSH_MS, 100, 1, Long.MAX_VALUE);
        org.dsmscope.trace.SystemProperties.booleanValue(TIMING, false);
        org.dsmscope.trace.SystemProperties.booleanValue("dsmscope.agent.debug", false);
    }

    /** Called by {@code org.dsmscope.agent.Agent.premain}; {@code agentJar} is the agent's jar (null: unknown). */
    public static void start(String args, Instrumentation inst, String agentJar) {
        AgentOptions o;
        try {
            o = AgentOptions.parse(args, System.getenv());
            checkProperties();
        } catch (IllegalArgumentException | org.dsmscope.trace.BadInputException e) {
            System.err.println("dsmscope agent: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (o.onTheFly()) {
            String bad;
            try {
                AnalysisSink sink = SinkLoader.load(o.analysisType(), agentJar);
                bad = sink.check(o.analysisType(), o.analysisOptions);
                TraceRuntime.sink = sink;
            } catch (RuntimeException | ServiceConfigurationError | LinkageError e) {
                bad = e.getMessage();
            }
            if (bad != null) {
                System.err.println("dsmscope agent: " + bad);
                System.exit(2);
                return;
            }
        }
        long t0 = System.nanoTime();
        Layouts.init(o.level >= 2);
        long t1 = System.nanoTime();
        if (!TraceRuntime.start(o)) {
            return;
        }
        long t2 = System.nanoTime();
        Thread hook = new Thread(new Runnable() {
            @Override
            public void run() {
                finish();
            }
        }, "dsmscope-agent-shutdown");
        TraceRuntime.agentThread(hook);
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Module agentModule = Bootstrap.class.getModule();
            // java.base reads the agent (hooks are called from JDK classes) and opens the locks package to it
            // (a read-write lock's read and write sections name the synchronizer they share: SyncHooks.lockObject)
            // and java.util.concurrent (a bounded queue's capacity: rt.QueueSlots)
            inst.redefineModule(Object.class.getModule(), Set.of(agentModule), Map.of(),
                    Map.of("java.util.concurrent.locks", Set.of(agentModule), "java.util.concurrent",
                            Set.of(agentModule)), Set.of(), Map.of());
            // Load the hook classes now, not inside the first traced call.
            for (String c : new String[] {"rt.ThreadHooks", "rt.SyncHooks", "rt.CallHooks", "rt.MemHooks",
                "rt.CodeHooks", "rt.SyncState", "rt.ParkHooks", "rt.JucHooks", "rt.JucHooks$Task", "rt.QueueHooks",
                "rt.QueueSlots", "rt.ForkJoinHooks", "rt.CfHooks", "rt.CfHooks$Stage", "rt.CfHooks$Joint",
                "rt.JdkMemHooks"}) {
                Class.forName("org.dsmscope.agent." + c, true, null);
            }
            long t3 = System.nanoTime();
            inst.addTransformer(new Transformer(o.level, o.jdk), true);
            inst.retransformClasses(Thread.class);
            // fork / join structure where the JDK forks and joins (parallel streams): instrument.ForkJoinPatch
            // patches those classes as they load; the few already loaded (rarely any) are patched now
            for (Class<?> c : inst.getAllLoadedClasses()) {
                String n = c.getName();
                if (n.equals("java.util.concurrent.ForkJoinTask") || n.equals("java.util.concurrent.CountedCompleter")
                        || n.equals("java.util.concurrent.ForkJoinPool")) {
                    inst.retransformClasses(c);
                }
            }
            if (o.jdk) {
                retransformJdk(inst);
            }
            if (org.dsmscope.trace.SystemProperties.booleanValue(TIMING, false)) {
                TraceRuntime.warn(String.format("start-up: layouts %d ms, traces %d ms, hooks %d ms, Thread %d ms",
                        (t1 - t0) / 1000000, (t2 - t1) / 1000000, (t3 - t2) / 1000000,
                        (System.nanoTime() - t3) / 1000000));
            }
        } catch (Throwable t) {
            TraceRuntime.warn("cannot trace threads: " + t);
        }
    }

    /**
     * {@code jdk=true}: the already loaded classes of {@code java.util} and {@code java.util.concurrent} are
     * retransformed (the others are rewritten as they load); all at once, else one by one, a class the JVM refuses
     * staying as it is, with one warning.
     */
    private static void retransformJdk(Instrumentation inst) {
        java.util.List<Class<?>> todo = new java.util.ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (Transformer.jdkTarget(c.getName().replace('.', '/')) && inst.isModifiableClass(c)) {
                todo.add(c);
            }
        }
        // by name: an outer class before its nested ones, whose VarHandle call sites use the outer class's
        // handles (ConcurrentLinkedQueue$Node: ConcurrentLinkedQueue.ITEM; instrument.VarHandles)
        todo.sort(new java.util.Comparator<Class<?>>() {
            @Override
            public int compare(Class<?> a, Class<?> b) {
                return a.getName().compareTo(b.getName());
            }
        });
        try {
            inst.retransformClasses(todo.toArray(new Class<?>[0]));
        } catch (Throwable all) {
            for (Class<?> c : todo) {
                try {
                    inst.retransformClasses(c);
                } catch (Throwable t) {
                    TraceRuntime.warn("class " + c.getName() + " left uninstrumented: " + t);
                }
            }
        }
    }

    private static void finish() {
        try {
            TraceRuntime.shutdown();
            String unrecorded = VarHandles.unrecordedWarning();
            if (unrecorded != null) {
                TraceRuntime.warn(unrecorded);
            }
        } catch (Throwable t) {
            TraceRuntime.warn("error while finishing the traces: " + t);
        }
    }
}
