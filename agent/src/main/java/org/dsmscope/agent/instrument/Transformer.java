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
 * analysis ({@link SinkLoader}'s loader) are left alone.
 * A class that cannot be rewritten loads unchanged, with one warning.
 */
public final class Transformer implements ClassFileTransformer {
    private final int level;
    private final ClassLoader platform = ClassLoader.getPlatformClassLoader();

    /** A transformer for instrumentation level {@code level}. */
    public Transformer(int level) {
        this.level = level;
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain pd, byte[] bytes) {
        if (name == null) {
            return null;
        }
        try {
            if (loader == null) {
                if (ForkJoinPatch.patches(name)) {
                    return ForkJoinPatch.patch(name, bytes);
                }
                return name.equals("java/lang/Thread") ? ThreadPatch.patch(bytes) : null;
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
        }
    }

    /** True for classes the agent never rewrites. */
    static boolean excluded(String name) {
        return name.startsWith("java/") || name.startsWith("javax/") || name.startsWith("jdk/")
                || name.startsWith("sun/") || name.startsWith("com/sun/") || name.startsWith("org/dsmscope/agent/")
                || name.equals("org/dsmscope/api/Smait");
    }
}
