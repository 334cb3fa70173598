package org.dsmscope.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;

/**
 * Random trace sets written as SMAIT files for end-to-end property tests (SPEC §4 "Partitioning"): fork-join thread
 * traces with every kind of record that decides where a partition's work lies (seed 000 §3, seed 001 §5.1), and
 * {@code -i} process traces ({@link ProcessGen}: semop, load-and-clear-word, file reads and writes).
 *
 * <p>A thread trace set: thread 0 declares a synchronization range ({@code SYNC_RANGE}), initializes the shared
 * pages, may start a user phase with a marker and stop and resume its tracing (marker commands 1 and 2), spawns the
 * others; every thread runs {@code chunks} chunks separated by barriers or markers (the same kind and number for
 * all threads, so the replay synchronizes their clocks there); each chunk begins with accesses to the same bytes by
 * every thread at equal clocks, then random accesses of 0 to 16 bytes (a quarter of the shared ones crossing a
 * 4 KiB page boundary), critical sections that touch their lock word (a synchronization variable), accesses to the
 * declared range and loop branches; all join, and thread 0 reads the shared pages back.
 */
final class RandomTraces {
    /** The instruction page. */
    static final long CODE = 0x2000;
    /** Lock words at LOCKS + 64 l. */
    static final long LOCKS = 0x8000;
    /** The barrier variable. */
    static final long BARRIER = 0x9000;
    /** The range declared as synchronization variables. */
    static final long SYNC = 0xA000;
    /** Bytes every thread touches at equal clocks after each barrier or marker. */
    static final long HOT = 0xB000;
    /** Four shared pages. */
    static final long SHARED = 0x10000;
    /** Thread t's private data at PRIVATE + 0x10000 t (inside {@code -HPUX}'s private range). */
    static final long PRIVATE = 0x4000_0000L;

    private static final int[] SIZES = {0, 1, 2, 3, 4, 8, 16};

    private RandomTraces() {
    }

    /**
     * Writes the thread trace set {@code dir/NAME.threads} (threads 1 to 8, {@code chunks} parallel chunks of about
     * {@code accesses} accesses each) from {@code seed} and returns its prefix.
     */
    static String threads(Path dir, String name, int threads, int chunks, int accesses, long seed) {
        return threads(dir, name, threads, chunks, accesses, seed, true);
    }

    /**
     * As {@link #threads(Path, String, int, int, int, long)}, with the procedure start and loop branches only if
     * {@code branches} (without them the trace set routes: replay/README.md "Partitioned replay").
     */
    static String threads(Path dir, String name, int threads, int chunks, int accesses, long seed,
            boolean branches) {
        return threads(dir, name, threads, chunks, accesses, seed, branches, false);
    }

    /**
     * As {@link #threads(Path, String, int, int, int, long, boolean)}; with {@code fetches} the odd threads write an
     * instruction-fetch record before each memory record, as a Lackey import does, and no branches.
     */
    static String threads(Path dir, String name, int threads, int chunks, int accesses, long seed,
            boolean branches, boolean fetches) {
        return threads(dir, name, threads, chunks, accesses, seed, branches, fetches, false);
    }

    /**
     * As {@link #threads(Path, String, int, int, int, long, boolean, boolean)}; with {@code stopAll} every chunk ends
     * with a marker, and in one thread (a random one per chunk) the marker stops all threads (command 3, after even
     * chunks) or resumes them (command 4, after odd ones), while the others are inside their chunks' accesses.
     */
    static String threads(Path dir, String name, int threads, int chunks, int accesses, long seed,
            boolean branches, boolean fetches, boolean stopAll) {
        SplittableRandom plan = new SplittableRandom(seed);
        boolean[] markerAfter = new boolean[chunks];
        int[] stopper = new int[chunks];
        for (int c = 0; c < chunks; c++) {
            markerAfter[c] = stopAll || plan.nextInt(3) == 0;
            stopper[c] = stopAll ? plan.nextInt(threads) : -1;
        }
        boolean serialMarker = plan.nextBoolean();
        boolean stopResume = plan.nextInt(3) == 0;
        List<Path> files = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Path f = dir.resolve(TraceSet.fileName(name, threads, t));
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic().endRecord(true))) {
                boolean fetching = fetches && t % 2 == 1;
                new ThreadWriter(w, t, threads, new SplittableRandom(seed * 0x9E3779B97F4A7C15L + t),
                        branches && !fetching, fetching).run(markerAfter, stopper, accesses, serialMarker,
                        stopResume);
                w.finish();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            files.add(f);
        }
        return dir.resolve(name + "." + threads).toString();
    }

    /** Writes a small {@code -i} process trace set of {@code processes} processes and returns its prefix. */
    static String processes(Path dir, String name, int processes, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ProcessGen.Params g = new ProcessGen.Params();
        g.processes = processes;
        g.slices = 3 + rnd.nextInt(5);
        g.sliceInstructions = 40 + rnd.nextInt(120);
        g.poolBytes = 16 << 10;
        g.ioBytes = 512;
        g.readRate = 0.3;
        g.writeRate = 0.3;
        g.seed = seed;
        return ProcessGen.write(dir, name, g).base();
    }

    /** One thread's records. */
    private static final class ThreadWriter {
        private final TraceWriter w;
        private final int t;
        private final int threads;
        private final SplittableRandom rnd;
        private long instr;
        private int inLoop;
        private long pc = CODE;

        private final boolean branches;
        private final boolean fetches;

        ThreadWriter(TraceWriter w, int t, int threads, SplittableRandom rnd, boolean branches, boolean fetches) {
            this.branches = branches;
            this.fetches = fetches;
            this.w = w;
            this.t = t;
            this.threads = threads;
            this.rnd = rnd;
        }

        private void call(int type, long a1, long a2, long a3) {
            long s = instr / 20;
            w.call(type, s, s + 1, a1, a2, a3, 0);
        }

        private void mem(boolean store, int size, long addr) {
            if (fetches) {
                w.fetch(pc, 4);
            }
            w.memory(store || size == 0 ? MemType.STORE : MemType.LOAD, size,
                    size == 16 ? MemType.VECTOR : MemType.FIXED, addr);
            instr++;
            pc += 4;
            if (++inLoop == 8 && branches) {
                w.branch(pc + 8, CODE);
                instr += 2;
                pc = CODE;
                inLoop = 0;
            }
        }

        void run(boolean[] markerAfter, int[] stopper, int accesses, boolean serialMarker, boolean stopResume) {
            if (branches) {
                w.procStart(CODE);
            }
            if (t == 0) {
                call(CallType.SYNC_RANGE, SYNC, 0, 64);
                for (long a = SHARED; a < SHARED + 4 * 4096; a += 256) {
                    mem(true, 8, a);
                }
                if (serialMarker) {
                    call(CallType.MARKER, 0, 5, 0);
                    mem(true, 4, HOT);
                }
                if (stopResume) {
                    call(CallType.MARKER, 1, 6, 0);
                    mem(true, 4, SHARED + 4);
                    call(CallType.MARKER, 2, 6, 0);
                }
                if (threads > 1) {
                    call(CallType.SPAWN, 1, threads - 1, 0);
                }
            }
            for (int c = 0; c < markerAfter.length; c++) {
                for (int i = 0; i < 4; i++) {
                    // every thread, at equal clocks (the chunk starts at a synchronized clock)
                    mem(i % 2 == 0, 4, HOT + i);
                }
                int n = accesses / 2 + rnd.nextInt(accesses + 1);
                for (int i = 0; i < n; i++) {
                    access();
                }
                if (c < markerAfter.length - 1 && threads > 1) {
                    if (markerAfter[c]) {
                        call(CallType.MARKER, stopper[c] == t ? 3 + c % 2 : 0, 10 + c, 0);
                    } else {
                        call(CallType.BARRIER, BARRIER, threads, 0);
                    }
                }
            }
            if (threads > 1) {
                call(CallType.JOIN, 0, 0, 0);
            }
            if (t == 0) {
                for (long a = SHARED; a < SHARED + 4 * 4096; a += 512) {
                    mem(false, 4, a);
                }
            }
        }

        private void access() {
            int k = rnd.nextInt(40);
            if (k == 0) {
                long lock = LOCKS + 64L * rnd.nextInt(3);
                call(CallType.BEGIN_CRITICAL, lock, 0, 0);
                mem(false, 4, lock);
                mem(false, 8, lock + 16);
                mem(true, 8, lock + 16);
                mem(true, 4, lock);
                call(CallType.END_CRITICAL, lock, 0, 0);
                return;
            }
            if (k == 1) {
                mem(rnd.nextBoolean(), 4, SYNC + 4L * rnd.nextInt(16));
                return;
            }
            int size = SIZES[rnd.nextInt(SIZES.length)];
            boolean store = rnd.nextInt(3) == 0;
            long a;
            if (rnd.nextInt(2) == 0) {
                long page = (SHARED >>> 12) + rnd.nextInt(4);
                a = rnd.nextInt(4) == 0 ? ((page + 1) << 12) - 1 - rnd.nextInt(12) : (page << 12) + rnd.nextInt(2048);
            } else {
                a = PRIVATE + 0x10000L * t + rnd.nextInt(8192);
            }
            mem(store, size, a);
        }
    }
}
