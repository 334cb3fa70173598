package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceSet;

/**
 * The prescan alone (replay/README.md "How a replay runs" and "Partitioned replay"), on one thread and on N: wall
 * milliseconds of each iteration after four of warm-up, and with {@code cpu} as the last argument the process's CPU
 * milliseconds instead (every thread's: on a shared machine the wall time measures the load), modes alternating. In the replay's package (in the bench
 * module) because the prescan is not public. Usage: {@code PrescanTiming TRACE_PREFIX ITERATIONS THREADS [routes] [cpu]}.
 * Without {@code routes}: the prescan a partitioned run makes (with the work profile), on 1 and on THREADS threads.
 * With {@code routes}: the parts of a routed run's prescan, each on THREADS threads: {@code decode} (every record
 * read, nothing looked at), {@code sync} (the plain prescan: synchronization variables, call match), {@code +route}
 * (and {@link RouteCheck}, the chunk marks cut at 2^62 bytes: none), {@code +marks} (and the chunk marks), {@code
 * +profile} (and the work profile: the whole prescan of {@code runRouted}), {@code streams} (the prescan of a
 * routed run whose analyses use neither spins nor the work profile, {@code Replay.prescanFor(false, false)}: CDAT's).
 */
public final class PrescanTiming {
    private PrescanTiming() {
    }

    private static final String[] ROUTES = {"decode", "sync", "+route", "+marks", "+profile", "streams"};

    /** Prints one line per mode. */
    public static void main(String[] a) {
        TraceSet set = TraceSet.ofPrefix(a[0]);
        int iterations = Integer.parseInt(a[1]);
        int threads = Integer.parseInt(a[2]);
        boolean routes = a.length > 3 && a[3].equals("routes");
        boolean cpu = a[a.length - 1].equals("cpu");
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        int modes = routes ? ROUTES.length : 2;
        StringBuilder[] out = new StringBuilder[modes];
        for (int m = 0; m < modes; m++) {
            out[m] = new StringBuilder();
        }
        String chunkBytes = System.getProperty(Chunks.BYTES_PROPERTY);
        long sink = 0;
        for (int it = 0; it < iterations + 4; it++) {
            for (int mode = 0; mode < modes; mode++) {
                long t0 = cpu ? os.getProcessCpuTime() : System.nanoTime();
                if (routes) {
                    sink += routesMode(set, mode, threads, chunkBytes);
                } else {
                    Prescan p = new Prescan(set.size(), new ReplayOptions(), new Problems());
                    p.countWork();
                    p.run(set, null, false, mode == 0 ? 1 : threads);
                }
                long t = (cpu ? os.getProcessCpuTime() : System.nanoTime()) - t0;
                if (it >= 4) {
                    out[mode].append(String.format(Locale.ROOT, " %.1f", t / 1e6));
                }
            }
        }
        for (int m = 0; m < modes; m++) {
            String what = routes ? ROUTES[m] + ", " + threads + " threads" : (m == 0 ? "1 thread" : threads + " threads");
            System.out.println(a[0] + " prescan " + (cpu ? "CPU" : "wall") + " ms, " + what + ":" + out[m]);
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    /** One run of mode {@code mode} of {@link #ROUTES}; returns a count so that the decoding is not dropped. */
    private static long routesMode(TraceSet set, int mode, int threads, String chunkBytes) {
        if (mode == 0) {
            return decode(set, threads);
        }
        if (mode == 2) {
            System.setProperty(Chunks.BYTES_PROPERTY, Long.toString(1L << 62));
        } else if (chunkBytes == null) {
            System.clearProperty(Chunks.BYTES_PROPERTY);
        } else {
            System.setProperty(Chunks.BYTES_PROPERTY, chunkBytes);
        }
        Prescan p = new Prescan(set.size(), new ReplayOptions(), new Problems());
        if (mode >= 2) {
            p.checkRoutes();
        }
        if (mode == 4) {
            p.countWork();
        }
        if (mode == 5) {
            p.skipSpins();
        }
        p.run(set, null, false, threads);
        return p.records[0];
    }

    /** Every record of every trace read (runs whole), on {@code threads} threads taking the files in turn. */
    private static long decode(TraceSet set, int threads) {
        java.util.List<Path> files = set.files();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        long[] counts = new long[threads];
        Thread[] ts = new Thread[threads];
        for (int w = 0; w < threads; w++) {
            int me = w;
            ts[w] = new Thread(() -> {
                for (int f; (f = next.getAndIncrement()) < files.size(); ) {
                    try (TraceReader r = TraceReader.open(files.get(f))) {
                        for (;;) {
                            for (int n; (n = r.nextRun(Integer.MAX_VALUE)) > 0; ) {
                                counts[me] += n;
                            }
                            if (r.next() == RecordKind.EOF) {
                                break;
                            }
                            counts[me]++;
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
            ts[w].start();
        }
        long sum = 0;
        for (int w = 0; w < threads; w++) {
            try {
                ts[w].join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sum += counts[w];
        }
        return sum;
    }
}
