package org.dsmscope.agent.core;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.dsmscope.agent.sink.AnalysisSink;

/**
 * Finds the on-the-fly analysis sink of SPEC §1 (seed 000 §2 {@code to_ciat}): the dsmscope distribution jar is
 * {@code -Ddsmscope.jar=FILE} (or a class path of several entries, as tests give it), else {@code dsmscope.jar} or {@code cli/target/dsmscope.jar} under
 * {@code -Ddsmscope.home=DIR}, else {@code dsmscope.jar} beside the agent jar or {@code ../../cli/target/dsmscope.jar}
 * from it (the source tree). The jar is opened in its own {@link URLClassLoader} whose parent is the platform loader
 * and the sink is found there with {@link ServiceLoader}; the sink sees the agent's boot-path classes (this
 * interface) but the agent and the program never see the analyses' classes.
 */
public final class SinkLoader {
    private static volatile ClassLoader loader;

    private SinkLoader() {
    }

    /** The sink class loader (null before one is made): the transformer leaves its classes alone. */
    public static ClassLoader loader() {
        return loader;
    }

    /** The candidate distribution jars, in search order. */
    static List<File> candidates(String agentJar) {
        List<File> c = new ArrayList<>();
        String jar = System.getProperty("dsmscope.jar");
        if (jar != null && !jar.isEmpty()) {
            c.add(new File(jar));
            return c;
        }
        String home = System.getProperty("dsmscope.home");
        if (home != null && !home.isEmpty()) {
            c.add(new File(home, "dsmscope.jar"));
            c.add(new File(home, "lib/dsmscope.jar"));
            c.add(new File(home, "cli/target/dsmscope.jar"));
            return c;
        }
        if (agentJar != null) {
            File dir = new File(agentJar).getAbsoluteFile().getParentFile();
            c.add(new File(dir, "dsmscope.jar"));
            c.add(new File(dir, "../../cli/target/dsmscope.jar"));
        }
        return c;
    }

    /** Loads the sink for {@code type}; throws IllegalStateException with one line if there is none. */
    static AnalysisSink load(String type, String agentJar) {
        List<File> path = new ArrayList<>();
        String given = System.getProperty("dsmscope.jar");
        List<File> tried = candidates(agentJar);
        if (given != null && given.contains(File.pathSeparator)) {
            for (String e : given.split(File.pathSeparator)) {
                if (!e.isEmpty()) {
                    path.add(new File(e));
                }
            }
        } else {
            for (File f : tried) {
                if (f.isFile()) {
                    path.add(f);
                    break;
                }
            }
        }
        if (path.isEmpty()) {
            throw new IllegalStateException("trace type " + type + " needs the dsmscope distribution jar"
                    + " (dsmscope.jar) for its analysis; not found at " + tried
                    + " (build it with mvn package, or give -Ddsmscope.jar=FILE or -Ddsmscope.home=DIR)");
        }
        URL[] urls = new URL[path.size()];
        try {
            for (int i = 0; i < urls.length; i++) {
                urls[i] = path.get(i).toURI().toURL();
            }
        } catch (MalformedURLException e) {
            throw new IllegalStateException("cannot open " + path + ": " + e.getMessage());
        }
        URLClassLoader l = new URLClassLoader("dsmscope-analysis", urls, ClassLoader.getPlatformClassLoader());
        loader = l;
        for (AnalysisSink s : ServiceLoader.load(AnalysisSink.class, l)) {
            if (s.handles(type)) {
                return s;
            }
        }
        throw new IllegalStateException(path + " has no analysis sink for trace type " + type);
    }
}
