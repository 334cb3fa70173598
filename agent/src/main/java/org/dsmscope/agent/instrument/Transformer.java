package org.dsmscope.agent.instrument;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import org.dsmscope.agent.core.SinkLoader;
import org.dsmscope.agent.core.TraceRuntime;

/**
 * The agent's class file transformer: rewrites application classes as they load ({@link ClassInstrumenter}) and
 * patches {@code java.lang.Thread} ({@link ThreadPatch}), {@code ForkJoinTask} and {@code CountedCompleter}
 * ({@link ForkJoinPatch}). JDK classes (boot and platform loaders, {@code java/},
 * {@code javax/}, {@code jdk/}, {@code sun/}, {@code com/sun/}), the agent, the marker API and the on-the-fly
 * analysis ({@link SinkLoader}'s loader) are left alone, except, with {@code jdk=true} (issue 28), the classes of
 * {@code java.util} and {@code java.util.concurrent} that {@link #jdkTarget} accepts, whose memory accesses are
 * traced ({@link ClassInstrumenter#instrumentJdk}), at load or when the agent retransforms them at start-up.
 * A class that cannot be rewritten loads unchanged, with one warning. The rewriting runs marked as the agent's
 * own work ({@code TraceRuntime.enterAgent}): the JDK classes it uses record nothing.
 */
public final class Transformer implements ClassFileTransformer {
    /**
     * JDK classes never instrumented with {@code jdk=true} (a prefix also covers the nested classes), each for a
     * reason given in agent/README.md "--trace-jdk": the agent uses them where no trace can be marked yet.
     */
    private static final String[] JDK_UNSAFE = {
        "java/util/IdentityHashMap", // the thread registry, used while a thread is bound to its trace
        "java/util/ArrayDeque", // the wake-up tickets of Object.wait / Condition.await and the live streams
    };

    private final int level;
    private final boolean jdk;
    private final ClassLoader platform = ClassLoader.getPlatformClassLoader();

    /** A transformer for instrumentation level {@code level}. */
    public Transformer(int level) {
        this(level, false);
    }

    /** A transformer for instrumentation level {@code level}; {@code jdk}: also java.util and java.util.concurrent. */
    public Transformer(int level, boolean jdk) {
        this.level = level;
        this.jdk = jdk;
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain pd, byte[] bytes) {
        if (name == null) {
            return null;
        }
        boolean was = TraceRuntime.enterAgent();
        try {
            if (loader == null) {
                if (name.equals("java/lang/Thread")) {
                    return ThreadPatch.patch(bytes);
                }
                // the fork-join classes are patched (ForkJoinPatch) and, with jdk=true, also have their accesses traced
                byte[] patched = ForkJoinPatch.patches(name) ? ForkJoinPatch.patch(name, bytes) : null;
                if (jdk && jdkTarget(name)) {
                    return ClassInstrumenter.instrumentJdk(patched != null ? patched : bytes);
                }
                return patched;
            }
            if (redefined != null || loader == platform || loader == SinkLoader.loader() || excluded(name)) {
                return null;
            }
            if (level == 1 && !LevelOneFilter.mayNeedRewrite(bytes)) {
                return null;
            }
            return ClassInstrumenter.instrument(bytes, level);
        } catch (Throwable t) {
            TraceRuntime.warn("class " + name.replace('/', '.') + " left uninstrumented: " + t);
            return null;
        } finally {
            TraceRuntime.leaveAgent(was);
        }
    }

    /**
     * True for the JDK classes {@code jdk=true} instruments: those of the packages {@code java.util} and {@code
     * java.util.concurrent} themselves (not their sub-packages: atomics and locks are synchronization, the others
     * are no data hand-off), less {@link #JDK_UNSAFE}.
     */
    public static boolean jdkTarget(String name) {
        String rest;
        if (name.startsWith("java/util/concurrent/")) {
            rest = name.substring("java/util/concurrent/".length());
        } else if (name.startsWith("java/util/")) {
            rest = name.substring("java/util/".length());
        } else {
            return false;
        }
        if (rest.indexOf('/') >= 0) {
            return false;
        }
        for (String u : JDK_UNSAFE) {
            if (name.equals(u) || name.startsWith(u + "$")) {
                return false;
            }
        }
        return true;
    }

    /** True for classes the agent never rewrites. */
    static boolean excluded(String name) {
        return name.startsWith("java/") || name.startsWith("javax/") || name.startsWith("jdk/")
                || name.startsWith("sun/") || name.startsWith("com/sun/") || name.startsWith("org/dsmscope/agent/")
                || name.equals("org/dsmscope/api/Smait");
    }
}
