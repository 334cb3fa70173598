package org.dsmscope.viewer.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import java.util.regex.Pattern;
import org.dsmscope.viewer.model.LiveMonitorSource;

/**
 * DSM programs started from the page, as Xunify's menus started them (seed 002 §4.3): the form names one of the
 * offered programs (the bundled examples), the members, the arguments and the packet loss; the run goes live on a
 * free loopback port, and the page follows it as a new input. Whoever wires the viewer (the cli) supplies the
 * {@link Runner} that starts {@code dsm run}; this class checks the form, runs it on a thread of its own, connects
 * to its live stream, and kills every run still going when the server stops.
 */
public final class Launches implements AutoCloseable {
    /** Most members a run from the page may have. */
    public static final int MAX_MEMBERS = 16;
    /** Most arguments. */
    public static final int MAX_ARGS = 16;
    private static final Pattern ARG = Pattern.compile("[A-Za-z0-9._:=,+-]{1,64}");

    /** Starts {@code dsm run} of {@code program} with live viewing on a free port, told to {@code liveStarted}. */
    @FunctionalInterface
    public interface Runner {
        /**
         * Runs the members until they end (or this thread is interrupted: then they are killed); returns the exit
         * status. Calls {@code liveStarted} with the live port before the members start.
         */
        int run(String program, int members, List<String> args, double loss, IntConsumer liveStarted)
                throws Exception;
    }

    private final List<String> programs;
    private final Runner runner;
    private final List<Thread> runs = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> history = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Offers {@code programs} (class names) and starts them with {@code runner}. */
    public Launches(List<String> programs, Runner runner) {
        this.programs = List.copyOf(programs);
        this.runner = runner;
    }

    /** The programs offered. */
    public List<String> programs() {
        return programs;
    }

    /** The runs started so far: program, members, arguments, loss, input, status ("running" until it ends). */
    public List<Map<String, Object>> runs() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> h : history) {
            synchronized (h) {
                out.add(new LinkedHashMap<>(h));
            }
        }
        return out;
    }

    /** Checks the form's fields; throws {@link IllegalArgumentException} naming the first mistake. */
    List<String> check(String program, int members, String args, double loss) {
        if (!programs.contains(program)) {
            throw new IllegalArgumentException("program: '" + program + "' is not one of " + programs);
        }
        if (members < 1 || members > MAX_MEMBERS) {
            throw new IllegalArgumentException("members: " + members + " out of range (1.." + MAX_MEMBERS + ")");
        }
        if (!(loss >= 0 && loss <= 0.5)) {
            throw new IllegalArgumentException("loss: " + loss + " out of range (0..0.5)");
        }
        List<String> a = new ArrayList<>();
        for (String s : args.strip().split("\\s+")) {
            if (s.isEmpty()) {
                continue;
            }
            if (!ARG.matcher(s).matches()) {
                throw new IllegalArgumentException("arguments: '" + s + "' (letters, digits and ._:=,+- only, at"
                        + " most 64 characters)");
            }
            a.add(s);
        }
        if (a.size() > MAX_ARGS) {
            throw new IllegalArgumentException("arguments: more than " + MAX_ARGS);
        }
        return a;
    }

    /**
     * Starts a run and returns its live input once connected (within 30 s); {@code add} gives the source its
     * input number. Throws {@link IllegalArgumentException} for a bad form, {@link IOException} when the run did
     * not go live.
     */
    int start(String program, int members, String args, double loss,
            java.util.function.ToIntFunction<LiveMonitorSource> add) throws IOException, InterruptedException {
        List<String> a = check(program, members, args, loss);
        if (closed) {
            throw new IllegalStateException("the server is stopping");
        }
        CompletableFuture<Integer> input = new CompletableFuture<>();
        Map<String, Object> h = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
        h.put("program", program);
        h.put("members", members);
        h.put("arguments", a);
        h.put("loss", loss);
        h.put("status", "running");
        Thread t = new Thread(() -> {
            try {
                int status = runner.run(program, members, a, loss, port -> {
                    try {
                        LiveMonitorSource s = LiveMonitorSource.connect("127.0.0.1", port, 10_000);
                        input.complete(add.applyAsInt(s));
                    } catch (IOException | RuntimeException e) {
                        input.completeExceptionally(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        input.completeExceptionally(e);
                    }
                });
                h.put("status", status);
                input.completeExceptionally(new IOException("the run ended (status " + status + ") before it went"
                        + " live"));
            } catch (Exception e) {
                h.put("status", "failed: " + e.getMessage());
                input.completeExceptionally(e);
            } finally {
                runs.remove(Thread.currentThread());
            }
        }, "dsmscope-view-launch");
        t.setDaemon(true);
        runs.add(t);
        t.start();
        try {
            int i = input.get(30, TimeUnit.SECONDS);
            h.put("input", i);
            history.add(h);
            return i;
        } catch (ExecutionException e) {
            throw new IOException("the run did not start: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            t.interrupt();
            throw new IOException("the run did not go live within 30 s");
        }
    }

    /** Kills every run still going (its members with it) and waits up to 10 s for them to end. */
    @Override
    public void close() {
        closed = true;
        for (Thread t : runs) {
            t.interrupt();
        }
        long deadline = System.currentTimeMillis() + 10_000;
        for (Thread t : runs) {
            try {
                t.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
