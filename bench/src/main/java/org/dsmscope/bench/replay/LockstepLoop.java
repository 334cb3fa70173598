package org.dsmscope.bench.replay;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.Locale;
import org.dsmscope.replay.Analysis;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceReader;

/**
 * The shape of the replay's lockstep rounds ({@code ThreadEngine.lockstep}) outside the engine, on the worker
 * threads' files of a trace set (files 1..T, as a fork-join program's trace has them): T readers read in turns of
 * up to ROUNDS records each, round by round, with no scheduling, to show what the loop nest itself costs.
 * Modes: {@code read} (each record's word only), {@code loop} (each record decoded and handed to an empty analysis
 * through a loop over an array of analyses, as the engine did before session 12) and {@code sink} (the same
 * handed to the one analysis held in a local, as it does now). Usage: {@code java -cp bench/target/benchmarks.jar
 * org.dsmscope.bench.replay.LockstepLoop TRACE_PREFIX THREADS MODE [ROUNDS] [REPEATS]}; prints the wall time
 * of each repeat. {@code loop} and {@code sink} repeat the same body on purpose: the loop nest around it is what
 * they compare, and a shared helper would change it.
 */
public final class LockstepLoop {
    private LockstepLoop() {
    }

    /** Entry point. */
    public static void main(String[] a) throws IOException {
        if (a.length < 3 || !(a[2].equals("read") || a[2].equals("loop") || a[2].equals("sink"))) {
            System.err.println("usage: LockstepLoop TRACE_PREFIX THREADS read|loop|sink [ROUNDS] [REPEATS]");
            System.exit(2);
        }
        int threads = Integer.parseInt(a[1]);
        int mode = a[2].equals("read") ? 0 : a[2].equals("loop") ? 1 : 2;
        int maxRounds = a.length > 3 ? Integer.parseInt(a[3]) : 64;
        int repeats = a.length > 4 ? Integer.parseInt(a[4]) : 3;
        Analysis[] an = {new Analysis() { }};
        for (int it = 0; it < repeats; it++) {
            long t0 = System.nanoTime();
            TraceReader[] rd = new TraceReader[threads];
            for (int f = 0; f < threads; f++) {
                rd[f] = TraceReader.open(Paths.get(a[0] + "." + (f + 1)));
            }
            long[] clock = new long[threads];
            long[][] w = new long[threads][];
            int[] s = new int[threads];
            long records = 0;
            long sum = 0;
            boolean done = false;
            while (!done) {
                int rounds = maxRounds;
                for (int k = 0; k < threads && !done; k++) {
                    int q = rd[k].peekRun(rounds);
                    if (q <= 0) {
                        // a record the batch path does not take (a call, the end): read it the slow way
                        done = rd[k].next() < 0;
                        records++;
                        q = 0;
                    }
                    rounds = Math.min(rounds, q);
                    w[k] = rd[k].runWords();
                    s[k] = rd[k].runStart();
                }
                if (done || rounds == 0) {
                    continue;
                }
                if (mode == 0) {
                    sum += read(w, s, threads, rounds, clock);
                } else if (mode == 1) {
                    loop(an, w, s, threads, rounds, clock);
                } else {
                    sink(an[0], w, s, threads, rounds, clock);
                }
                for (int k = 0; k < threads; k++) {
                    rd[k].skip(rounds);
                }
                records += (long) threads * rounds;
            }
            for (TraceReader r : rd) {
                r.close();
            }
            System.out.printf(Locale.ROOT, "%s %s: %d records in %.2f s (%d)%n", a[0], a[2], records,
                    (System.nanoTime() - t0) / 1e9, sum);
        }
    }

    private static long read(long[][] w, int[] s, int threads, int rounds, long[] clock) {
        long sum = 0;
        for (int j = 0; j < rounds; j++) {
            for (int k = 0; k < threads; k++) {
                sum += w[k][s[k] + j];
                clock[k] = j + 1;
            }
        }
        return sum;
    }

    private static void loop(Analysis[] an, long[][] w, int[] s, int threads, int rounds, long[] clock) {
        for (int j = 0; j < rounds; j++) {
            for (int k = 0; k < threads; k++) {
                long word = w[k][s[k] + j];
                int f1 = (int) (word >>> 32);
                int size = MemType.bytes(f1);
                boolean store = (f1 & 0xF) == MemType.STORE;
                for (Analysis x : an) {
                    x.access(k, k, j, f1, size, store, word & 0xFFFFFFFFL);
                }
                clock[k] = j + 1;
            }
        }
    }

    private static void sink(Analysis one, long[][] w, int[] s, int threads, int rounds, long[] clock) {
        for (int j = 0; j < rounds; j++) {
            for (int k = 0; k < threads; k++) {
                long word = w[k][s[k] + j];
                int f1 = (int) (word >>> 32);
                int size = MemType.bytes(f1);
                boolean store = (f1 & 0xF) == MemType.STORE;
                one.access(k, k, j, f1, size, store, word & 0xFFFFFFFFL);
                clock[k] = j + 1;
            }
        }
    }
}
