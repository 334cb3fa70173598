package org.dsmscope.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A/B comparison of two builds in one JVM: loads a harness class (any class with a {@code main}, e.g. {@code
 * org.dsmscope.bench.ciat.CiatOnly}) from two class paths in two class loaders and calls their {@code main}
 * alternately, each call's output prefixed by {@code A} or {@code B}. This VM's speed moves by tens of per cent
 * between JVMs and over minutes (other tenants on the host), so two builds compared in separate JVMs can differ by
 * more than the change being measured; in one JVM, alternating, both see the same heap layout and the same phases of
 * the machine. Usage: {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.SameJvmAB ROUNDS CLASS
 * CLASSPATH_A CLASSPATH_B -- ARGS...}, each class path a colon list whose first entries hold the build's changed
 * classes, e.g. {@code old/ciat/classes:bench/target/benchmarks.jar} and {@code ciat/target/classes:bench/target/
 * benchmarks.jar} (the first entry wins over the same class in the bench jar).
 */
public final class SameJvmAB {
    private SameJvmAB() {
    }

    /** Runs the comparison. */
    public static void main(String[] a) throws Exception {
        if (a.length < 5 || !a[4].equals("--")) {
            System.err.println("usage: SameJvmAB ROUNDS CLASS CLASSPATH_A CLASSPATH_B -- ARGS...");
            System.exit(2);
        }
        int rounds = Integer.parseInt(a[0]);
        String cls = a[1];
        Method[] main = {mainOf(cls, a[2]), mainOf(cls, a[3])};
        String[] rest = Arrays.copyOfRange(a, 5, a.length);
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                // A first in even rounds, B first in odd ones: neither always runs right after a warm-up
                int v = (r & 1) == 0 ? k : 1 - k;
                System.out.print(v == 0 ? "A " : "B ");
                try {
                    main[v].invoke(null, (Object) rest.clone());
                } catch (InvocationTargetException e) {
                    throw new IllegalStateException((v == 0 ? "A" : "B") + " failed", e.getCause());
                }
                System.out.flush();
            }
        }
    }

    private static Method mainOf(String cls, String classPath) throws MalformedURLException,
            ClassNotFoundException, NoSuchMethodException {
        List<URL> urls = new ArrayList<>();
        for (String p : classPath.split(":")) {
            urls.add(Paths.get(p).toUri().toURL());
        }
        ClassLoader l = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        return Class.forName(cls, true, l).getMethod("main", String[].class);
    }
}
