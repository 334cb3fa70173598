package org.dsmscope.agent;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.jar.JarFile;

/**
 * The {@code Premain-Class} of the dsmscope agent (SMAIT for the JVM, seed 000 §2, SPEC §3).
 *
 * <p>This class is loaded by the system class loader; it only puts its own jar on the bootstrap class path and
 * hands over to {@code org.dsmscope.agent.core.Bootstrap}, loaded by the bootstrap loader, so that the hooks that
 * instrumented code calls are visible to JDK and application classes alike. It references no other agent class.
 */
public final class Agent {
    private Agent() {
    }

    /** This class's jar; if it was loaded from elsewhere (agent classes on the class path), the agent jar on it. */
    private static File agentJar() throws java.io.IOException {
        try {
            URL url = Agent.class.getProtectionDomain().getCodeSource().getLocation();
            File f = new File(url.toURI());
            if (f.isFile()) {
                return f;
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // search the class path below
        }
        // Loaded from -Xbootclasspath/a: a boot class has no code source, but its resource URL names the jar.
        URL self = Agent.class.getResource("Agent.class");
        if (self != null && self.getProtocol().equals("jar")) {
            try {
                String u = self.getPath();
                File f = new File(new java.net.URI(u.substring(0, u.indexOf("!/"))));
                if (f.isFile()) {
                    return f;
                }
            } catch (java.net.URISyntaxException | RuntimeException e) {
                // search the class path below
            }
        }
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            File f = new File(entry);
            if (f.isFile() && f.getName().endsWith(".jar")) {
                try (JarFile j = new JarFile(f)) {
                    if (j.getManifest() != null && Agent.class.getName().equals(
                            j.getManifest().getMainAttributes().getValue("Premain-Class"))) {
                        return f;
                    }
                }
            }
        }
        return null;
    }

    /**
     * True if the agent jar is on the boot class path already ({@code -Xbootclasspath/a:}, as {@code dsmscope trace}
     * starts the JVM): appending it at run time would make HotSpot warn that class data sharing is limited.
     */
    private static boolean onBootPath() {
        try {
            Class.forName("org.dsmscope.agent.core.Bootstrap", false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Entry point for {@code -javaagent:dsmscope-agent.jar[=options]}. */
    public static void premain(String args, Instrumentation inst) {
        try {
            File jar = agentJar();
            if (jar != null && !onBootPath()) {
                inst.appendToBootstrapClassLoaderSearch(new JarFile(jar));
            }
            Class<?> boot = Class.forName("org.dsmscope.agent.core.Bootstrap", true, null);
            Method start = boot.getMethod("start", String.class, Instrumentation.class, String.class);
            start.invoke(null, args, inst, jar == null ? null : jar.getAbsolutePath());
        } catch (ClassNotFoundException e) {
            System.err.println("dsmscope agent: run the agent from its jar (dsmscope-agent.jar); tracing is off");
        } catch (ReflectiveOperationException | java.io.IOException | RuntimeException e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            System.err.println("dsmscope agent: cannot start, tracing is off: " + c);
        }
    }
}
