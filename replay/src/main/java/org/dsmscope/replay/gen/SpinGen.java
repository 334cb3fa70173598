package org.dsmscope.replay.gen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;

/**
 * Random fork-join thread traces whose threads spin, for the tests of spin detection (ciat/README.md "Spin time")
 * and of its routing (replay/README.md "Partitioned replay"): thread 0 works and spawns the others; every thread
 * runs segments of work, spin loops and critical sections between barriers; thread 0 joins and works. Thread 1
 * and about half the others spin: loops over 1 to 4 of six flag words spread over two pages (a word's first 4
 * bytes are another location), of lengths around the spin threshold of 5 loads a location or far above it, some
 * re-reading only their first location after the first pass, ended by another location's load, a store elsewhere,
 * the thread's own store to a spun word (a lock spin) or a lock call, some inside a critical section. Work is
 * loads and stores (a third; a few of no bytes) of the flags (so threads that spin and threads that do not store
 * to them), of shared words (some crossing a page), of private words below and above 4 GiB, or a flag polled
 * between other loads (short loops only). Deterministic: the same arguments give the same bytes.
 */
public final class SpinGen {
    /** The first flag word (six words from here, over two 4 KiB pages). */
    public static final long FLAGS = 0x1000_0FE0L;
    private static final long SHARED = 0x1000_2000L;
    private static final long LOCKS = 0x0F00_0000L;
    private static final long BARRIER = 0x0F10_0000L;

    private SpinGen() {
    }

    /** Writes {@code DIR/NAME.threads.t} for t below {@code threads} (1 to 64) from {@code seed}. */
    public static TraceSet write(Path dir, String name, int threads, long seed) {
        List<Path> files = new ArrayList<>();
        SplittableRandom top = new SplittableRandom(seed);
        int barriers = top.nextInt(4);
        int len = 1 + top.nextInt(25);
        for (int t = 0; t < threads; t++) {
            Path f = dir.resolve(TraceSet.fileName(name, threads, t));
            SplittableRandom rnd = new SplittableRandom(seed * 131 + t);
            ThreadWriter th = new ThreadWriter(rnd, t, t == 1 || rnd.nextBoolean());
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic().addr64(true))) {
                th.w = w;
                if (t == 0) {
                    th.work(1 + rnd.nextInt(30));
                    if (threads > 1) {
                        th.call(CallType.SPAWN, 1, threads - 1);
                    }
                }
                for (int b = 0; b <= barriers; b++) {
                    for (int i = rnd.nextInt(len); i > 0; i--) {
                        th.segment();
                    }
                    if (b < barriers && threads > 1) {
                        th.call(CallType.BARRIER, BARRIER, threads);
                    }
                }
                if (threads > 1) {
                    th.call(CallType.JOIN, 0, 0);
                }
                if (t == 0) {
                    th.work(rnd.nextInt(30));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            files.add(f);
        }
        return TraceSet.of(dir.resolve(name + "." + threads).toString(), files);
    }

    /** One thread's writer. */
    private static final class ThreadWriter {
        final SplittableRandom rnd;
        final int t;
        final boolean spins;
        TraceWriter w;
        long time;

        ThreadWriter(SplittableRandom rnd, int t, boolean spins) {
            this.rnd = rnd;
            this.t = t;
            this.spins = spins;
        }

        void segment() {
            int kind = rnd.nextInt(5);
            if (kind < 2 && spins) {
                spin();
            } else if (kind == 2) {
                long lock = LOCKS + 64L * rnd.nextInt(2);
                call(CallType.BEGIN_CRITICAL, lock, 0);
                work(1 + rnd.nextInt(4));
                if (spins && rnd.nextBoolean()) {
                    spin();
                }
                call(CallType.END_CRITICAL, lock, 0);
            } else {
                work(1 + rnd.nextInt(30));
            }
        }

        long flag() {
            return FLAGS + 8L * rnd.nextInt(6);
        }

        long privateWord() {
            return (rnd.nextBoolean() ? 0x2000_0000L : 0x7F00_0000_0000L) + 0x10_0000L * t + 8 * rnd.nextInt(4096);
        }

        void spin() {
            int k = 1 + rnd.nextInt(4);
            long[] a = new long[k];
            int[] size = new int[k];
            for (int i = 0; i < k; i++) {
                boolean fresh;
                do {
                    a[i] = flag();
                    size[i] = rnd.nextInt(5) == 0 ? 4 : 8;
                    fresh = true;
                    for (int j = 0; j < i; j++) {
                        fresh &= a[j] != a[i] || size[j] != size[i];
                    }
                } while (!fresh);
            }
            int loads = rnd.nextInt(4) == 0 ? 5 * k + rnd.nextInt(100) : Math.max(k, 5 * k - 3 + rnd.nextInt(7));
            boolean biased = rnd.nextInt(3) == 0;
            for (int i = 0; i < loads; i++) {
                int j = i < k ? i : biased ? 0 : rnd.nextInt(k);
                w.memory(MemType.LOAD, size[j], MemType.FIXED, a[j]);
            }
            switch (rnd.nextInt(5)) {
                case 0:
                    w.memory(MemType.STORE, size[0], MemType.FIXED, a[0]);
                    break;
                case 1:
                    w.memory(MemType.STORE, 8, MemType.FIXED, privateWord());
                    break;
                case 2:
                    call(CallType.BEGIN_CRITICAL, LOCKS + 128, 0);
                    call(CallType.END_CRITICAL, LOCKS + 128, 0);
                    break;
                default:
                    break;
            }
        }

        void work(int m) {
            boolean poll = rnd.nextInt(3) == 0;
            long polled = flag();
            for (int i = 0; i < m; i++) {
                if (poll) {
                    w.memory(MemType.LOAD, 8, MemType.FIXED, polled);
                }
                boolean store = rnd.nextInt(3) == 0;
                int size = 8;
                long a;
                switch (rnd.nextInt(5)) {
                    case 0: a = flag(); break;
                    case 1: a = SHARED + 4096L * rnd.nextInt(4) - rnd.nextInt(8); size = 1 << rnd.nextInt(4); break;
                    case 2: a = SHARED + 8 * rnd.nextInt(1024); break;
                    default: a = privateWord(); break;
                }
                if (store && rnd.nextInt(50) == 0) {
                    size = 0;
                }
                w.memory(store ? MemType.STORE : MemType.LOAD, size, MemType.FIXED, a);
            }
        }

        void call(int type, long a1, long a2) {
            w.call(type, time, time + 1, a1, a2, 0, 0);
            time += 2;
        }
    }
}
