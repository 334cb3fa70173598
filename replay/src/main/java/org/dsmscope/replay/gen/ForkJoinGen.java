package org.dsmscope.replay.gen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;

/**
 * Synthetic fork-join programs in the style of seed 001 §4's scientific benchmarks: a serial initialization phase
 * (thread 0 stores the shared array), a spawn, a parallel phase cut by barriers in which every thread accesses
 * shared data (a {@code sharedFraction} of its accesses, random 8-byte words of the shared array) and its own
 * private data (sequential 8-byte words), and enters critical sections on a few locks, then a join and a serial
 * wrap-up phase. Deterministic: the same parameters give the same bytes. See the module README for the layout.
 */
public final class ForkJoinGen {
    /** Shared array base address. */
    public static final long SHARED = 0x1000_0000L;
    /** Thread t's private region starts at PRIVATE + t * PRIVATE_STRIDE. */
    public static final long PRIVATE = 0x2000_0000L;
    /** Distance between private regions. */
    public static final long PRIVATE_STRIDE = 0x0100_0000L;
    /** Most threads (or processes) whose private regions fit 32-bit addresses: (2^32 - PRIVATE) / PRIVATE_STRIDE. */
    public static final int MAX_REGIONS = (int) (((1L << 32) - PRIVATE) / PRIVATE_STRIDE);
    /** Lock i is the word at LOCKS + 64 i; the counter it protects is at COUNTERS + 64 i. */
    public static final long LOCKS = 0x0F00_0000L;
    /** Counters protected by the locks. */
    public static final long COUNTERS = 0x0F20_0000L;
    /** The barrier's synchronization variable. */
    public static final long BARRIER = 0x0F10_0000L;
    /** Code address of the parallel loop (with branch records). */
    public static final long CODE = 0x0001_0000L;

    /** Generator parameters; defaults in the field initializers. */
    public static final class Params {
        /** Threads (trace files). */
        public int threads = 4;
        /** Memory accesses per thread in the parallel phase. */
        public long instructions = 100_000;
        /** Memory accesses of the serial initialization phase (wrap-up: half as many). */
        public long serial = -1;
        /** Fraction of parallel accesses to the shared array (0..1). */
        public double sharedFraction = 0.3;
        /** Bytes of the shared array. */
        public long sharedBytes = 1 << 20;
        /** Bytes of each thread's private region. */
        public long privateBytes = 256 << 10;
        /** Probability per access of entering a critical section (a load and a store of a counter). */
        public double lockRate = 0.001;
        /** Distinct locks. */
        public int locks = 4;
        /** Barriers in the parallel phase. */
        public int barriers = 4;
        /** Fraction of accesses that are stores. */
        public double storeFraction = 0.33;
        /** Also write procedure-start and taken-branch records (SMAIT level 3): a loop of 8 accesses. */
        public boolean branches;
        /** Random seed. */
        public long seed = 1;
        /** Compression of the files. */
        public Codec codec = Codec.NONE;

        /** Checks ranges; throws {@link BadInputException} naming the parameter. */
        public void validate() {
            check(threads >= 1 && threads <= MAX_REGIONS, "threads", threads,
                    "1.." + MAX_REGIONS + " (private regions of 16 MiB from 0x20000000 fit 32-bit addresses)");
            check(instructions >= 0, "instructions", instructions, "0 or more");
            check(sharedFraction >= 0 && sharedFraction <= 1, "shared fraction", sharedFraction, "0..1");
            check(lockRate >= 0 && lockRate <= 1, "lock rate", lockRate, "0..1");
            check(storeFraction >= 0 && storeFraction <= 1, "store fraction", storeFraction, "0..1");
            check(locks >= 1 && locks <= 4096, "locks", locks, "1..4096");
            check(barriers >= 0, "barriers", barriers, "0 or more");
            check(sharedBytes >= 8 && sharedBytes <= 0x0F00_0000L, "shared bytes", sharedBytes, "8..251658240");
            check(privateBytes >= 8 && privateBytes <= PRIVATE_STRIDE, "private bytes", privateBytes, "8..16777216");
        }
    }

    static void check(boolean ok, String what, Object v, String range) {
        if (!ok) {
            throw new BadInputException("gen: " + what + " " + v + " out of range (" + range + ")");
        }
    }

    private ForkJoinGen() {
    }

    /** Writes the trace set {@code dir/NAME.p} (files NAME.p.0 … NAME.p.(p-1)) and returns it. */
    public static TraceSet write(Path dir, String name, Params p) {
        p.validate();
        List<Path> files = new ArrayList<>();
        for (int t = 0; t < p.threads; t++) {
            Path f = dir.resolve(TraceSet.fileName(name, p.threads, t));
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic().codec(p.codec).background(true)
                    .endRecord(true))) {
                new Thread(p, t, w).run();
                w.finish();
            } catch (IOException e) {
                throw new UncheckedIOException(f + ": cannot write: " + e.getMessage(), e);
            }
            files.add(f);
        }
        return TraceSet.of(dir.resolve(name + "." + p.threads).toString(), files);
    }

    /** Writes one thread's trace. */
    private static final class Thread {
        private final Params p;
        private final int t;
        private final TraceWriter w;
        private final SplittableRandom rnd;
        private long instr;
        private long priv;
        private int inLoop;
        private long pc;

        Thread(Params p, int t, TraceWriter w) {
            this.p = p;
            this.t = t;
            this.w = w;
            this.rnd = new SplittableRandom(p.seed * 0x9E3779B97F4A7C15L + t);
        }

        private long now() {
            return instr / 240;
        }

        private void call(int type, long a1, long a2, long a3) {
            long s = now();
            w.call(type, s, s + 1, a1, a2, a3, 0);
        }

        private void mem(boolean store, long addr) {
            w.memory(store ? MemType.STORE : MemType.LOAD, 8, MemType.FLOAT, addr);
            instr++;
            if (p.branches) {
                pc += 4;
                if (++inLoop == 8) {
                    w.branch(pc + 8, CODE);
                    instr += 2;
                    pc = CODE;
                    inLoop = 0;
                }
            }
        }

        void run() {
            long serial = p.serial >= 0 ? p.serial : p.instructions / 10;
            if (p.branches) {
                w.procStart(CODE);
                pc = CODE;
            }
            if (t == 0) {
                long words = p.sharedBytes / 8;
                for (long i = 0; i < serial; i++) {
                    mem(true, SHARED + 8 * (i % words));
                }
                if (p.threads > 1) {
                    call(CallType.SPAWN, 1, p.threads - 1, 0);
                }
            }
            long chunks = p.barriers + 1L;
            for (long c = 0; c < chunks; c++) {
                long n = p.instructions / chunks + (c < p.instructions % chunks ? 1 : 0);
                for (long i = 0; i < n; i++) {
                    access();
                }
                if (c < p.barriers && p.threads > 1) {
                    call(CallType.BARRIER, BARRIER, p.threads, 0);
                }
            }
            if (p.threads > 1) {
                call(CallType.JOIN, 0, 0, 0);
            }
            if (t == 0) {
                long words = p.sharedBytes / 8;
                for (long i = 0; i < serial / 2; i++) {
                    mem(false, SHARED + 8 * (i % words));
                }
            }
        }

        private void access() {
            if (p.lockRate > 0 && rnd.nextDouble() < p.lockRate) {
                int l = rnd.nextInt(p.locks);
                call(CallType.BEGIN_CRITICAL, LOCKS + 64L * l, 0, 0);
                mem(false, COUNTERS + 64L * l);
                mem(true, COUNTERS + 64L * l);
                call(CallType.END_CRITICAL, LOCKS + 64L * l, 0, 0);
                return;
            }
            boolean store = rnd.nextDouble() < p.storeFraction;
            if (rnd.nextDouble() < p.sharedFraction) {
                mem(store, SHARED + 8 * rnd.nextLong(p.sharedBytes / 8));
            } else {
                mem(store, PRIVATE + t * PRIVATE_STRIDE + priv);
                priv = (priv + 8) % (p.privateBytes & ~7L);
            }
        }
    }
}
