package org.dsmscope.dsm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dsmscope.monitor.record.Recorder;
import org.dsmscope.monitor.route.LiveServer;
import org.dsmscope.monitor.route.RouteServer;

/**
 * Starts the members of a DSM program as separate JVMs on loopback (SPEC §9), collects their output line by line
 * with a {@code [m<rank>]} prefix, routes their events to a recorder when asked, and reports each member's fate.
 * A member that dies does not stop the others; the recording keeps everything routed up to its death.
 */
public final class Launcher {
    /** Options of a run. */
    public static final class Options {
        /** Number of member JVMs. */
        public int members = 4;
        /** Packet loss probability on arrival (JGroups DISCARD). */
        public double loss;
        /** Added delay on arrival, ms (JGroups DELAY). */
        public int delayMillis;
        /** Recording file, or null. */
        public Path record;
        /** Overall limit for the run, seconds. */
        public long timeoutSeconds = 120;
        /** Limit of each blocking DSM operation, ms. */
        public long opTimeoutMillis = 20_000;
        /** Classpath for the members (default: this JVM's). */
        public String classpath;
        /** Classes of events recorded from the start (a {@link org.dsmscope.monitor.event.Level} mask). */
        public int levels = org.dsmscope.monitor.event.Level.ALL;
        /**
         * Where run-time commands come from while the members run (null: none). A line {@code levels LIST}
         * switches the recorded classes of events in every member at once (seed 002 §4.2).
         */
        public InputStream control;
        /**
         * Port on 127.0.0.1 where live viewers connect ({@code dsmscope monitor watch --port PORT}, format
         * "dsmscope-live 1"); 0 picks a free port, -1 (default) means no live viewing.
         */
        public int livePort = -1;
        /** With live viewing: wait up to this many seconds for a first viewer before starting the members. */
        public long liveWaitSeconds;
        /** Capacity of each viewer's queue in events; what does not fit is dropped and counted. */
        public int liveQueue = org.dsmscope.monitor.route.LiveServer.DEFAULT_QUEUE;
        /** Told the live port once viewers can connect (tests; null: none). */
        public java.util.function.IntConsumer liveStarted;
        /** Application class and arguments. */
        public List<String> command = new ArrayList<>();
    }

    private Launcher() {
    }

    /** The classpath members get: surefire's test classpath under tests, else this JVM's. */
    static String defaultClasspath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isEmpty() ? cp : System.getProperty("java.class.path");
    }

    /** Runs the members; returns 0 when all succeeded, 1 otherwise (failures described on {@code err}). */
    public static int run(Options o, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        Path disco = Files.createTempDirectory("dsmscope-discovery");
        String cluster = "dsm-" + ProcessHandle.current().pid() + "-" + System.nanoTime() % 100000;
        RouteServer route = null;
        Recorder rec = null;
        LiveServer live = null;
        if (o.record != null || o.livePort >= 0) {
            route = new RouteServer();
        }
        if (o.record != null) {
            rec = new Recorder(o.record);
            route.addSink(rec);
            route.setMask(o.levels);
            if (o.control != null) {
                controlLoop(o.control, route, err);
            }
        }
        if (o.livePort >= 0) {
            live = startLive(o, route, err);
        }
        int status = 1;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> procs = new ArrayList<>();
        List<Thread> pumps = new ArrayList<>();
        try {
            for (int r = 0; r < o.members; r++) {
                List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                        "-Djava.net.preferIPv4Stack=true", "-Djgroups.bind_addr=127.0.0.1",
                        "-Djava.util.logging.config.file=/dev/null"));
                cmd.addAll(memberJavaOptions());
                cmd.addAll(List.of(
                        "-cp", o.classpath != null ? o.classpath : defaultClasspath(),
                        MemberMain.class.getName(), Integer.toString(r), Integer.toString(o.members), cluster,
                        disco.toString(), Double.toString(o.loss), Integer.toString(o.delayMillis),
                        Integer.toString(route == null ? 0 : route.port()), Long.toString(o.opTimeoutMillis)));
                cmd.addAll(o.command);
                ProcessBuilder pb = new ProcessBuilder(cmd);
                Process p = pb.start();
                procs.add(p);
                pumps.add(pump(p.getInputStream(), "[m" + r + "] ", out));
                pumps.add(pump(p.getErrorStream(), "[m" + r + "] ", err));
            }
            long deadline = System.currentTimeMillis() + o.timeoutSeconds * 1000;
            int failed = 0;
            boolean usage = false;
            for (int r = 0; r < procs.size(); r++) {
                Process p = procs.get(r);
                long left = deadline - System.currentTimeMillis();
                if (usage) {
                    // the program refused its arguments (status 2): the other members cannot finish either
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                } else if (!p.waitFor(Math.max(1, left), TimeUnit.MILLISECONDS)) {
                    err.println("dsmscope: member m" + r + " still running after " + o.timeoutSeconds
                            + " s; stopping it");
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                    failed++;
                } else if (p.exitValue() != 0) {
                    err.println("dsmscope: member m" + r + " exited with status " + p.exitValue()
                            + (p.exitValue() == 2 ? " (the program's arguments: see its usage line)" : ""));
                    usage |= p.exitValue() == 2;
                    failed++;
                }
            }
            for (Thread t : pumps) {
                t.join(2000);
            }
            if (route != null) {
                route.drain(3000);
            }
            status = usage ? 2 : failed == 0 ? 0 : 1;
            return status;
        } finally {
            // members still alive here were stopped (timeout, or the launching thread was interrupted): kill them
            for (Process p : procs) {
                if (p.isAlive()) {
                    p.destroyForcibly();
                }
            }
            if (live != null) {
                live.finish(status, 3000);
                if (live.dropped() > 0) {
                    err.println("dsmscope: live viewers were too slow: " + live.dropped() + " events dropped for them");
                }
            }
            if (route != null) {
                route.close();
            }
            if (rec != null) {
                rec.close();
                if (rec.failure() == null) {
                    out.println("recorded " + rec.events() + " events to " + o.record);
                }
            }
            try (var s = Files.list(disco)) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    deleteTree(f);
                }
            }
            Files.deleteIfExists(disco);
        }
    }

    private static LiveServer startLive(Options o, RouteServer route, PrintStream err)
            throws IOException, InterruptedException {
        LiveServer live;
        try {
            live = new LiveServer(route, o.livePort, o.levels, o.liveQueue);
        } catch (java.net.BindException e) {
            route.close();
            throw new java.net.BindException("--live " + o.livePort + ": cannot listen on 127.0.0.1:" + o.livePort
                    + " (" + e.getMessage() + ")");
        }
        err.println("dsmscope: live events on 127.0.0.1:" + live.port() + " (dsmscope monitor watch --port "
                + live.port() + ")");
        if (o.liveStarted != null) {
            o.liveStarted.accept(live.port());
        }
        if (o.liveWaitSeconds > 0 && !live.awaitViewers(1, o.liveWaitSeconds * 1000)) {
            err.println("dsmscope: no viewer connected within " + o.liveWaitSeconds + " s; starting anyway");
        }
        return live;
    }

    /** Reads {@code levels LIST} commands on a daemon thread and switches the members' event classes. */
    private static void controlLoop(InputStream control, RouteServer route, PrintStream err) {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(control, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    control(line, route, err);
                }
            } catch (IOException e) {
                // the control stream closed: keep the current classes
            }
        }, "dsmscope-dsm-control");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Carries out one run-time command: {@code levels LIST} switches the recorded classes of events in every
     * member; anything else is reported on {@code err}. Blank lines are ignored.
     */
    static void control(String line, RouteServer route, PrintStream err) {
        String cmd = line.strip();
        if (cmd.isEmpty()) {
            return;
        }
        if (!cmd.startsWith("levels ")) {
            err.println("dsmscope: unknown command '" + cmd + "' (expected: levels program,message,transport | all"
                    + " | none)");
            return;
        }
        try {
            int mask = org.dsmscope.monitor.event.Level.parseMask(cmd.substring(7));
            route.setMask(mask);
            err.println("dsmscope: recording levels " + org.dsmscope.monitor.event.Level.describe(mask));
        } catch (IllegalArgumentException e) {
            err.println("dsmscope: " + e.getMessage());
        }
    }

    /**
     * Extra JVM options for every member from the environment variable {@code DSMSCOPE_MEMBER_JAVA_OPTS}
     * (split at white space), e.g. a {@code java.util.logging} configuration that shows JGroups' debug output.
     */
    static List<String> memberJavaOptions() {
        String v = System.getenv("DSMSCOPE_MEMBER_JAVA_OPTS");
        return v == null || v.isBlank() ? List.of() : List.of(v.strip().split("\\s+"));
    }

    private static void deleteTree(Path f) throws IOException {
        if (Files.isDirectory(f)) {
            try (var s = Files.list(f)) {
                for (Path c : (Iterable<Path>) s::iterator) {
                    deleteTree(c);
                }
            }
        }
        Files.deleteIfExists(f);
    }

    private static Thread pump(InputStream in, String prefix, PrintStream to) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    synchronized (to) {
                        to.println(prefix + line);
                    }
                }
            } catch (IOException e) {
                // the member is gone
            }
        }, "dsmscope-output");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
