package org.dsmscope.replay.gen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;

/**
 * Synthetic multi-process traces in the style of seed 001 §4's TPC traces, for {@code -i p}: T processes with no
 * spawn or join, each a sequence of slices separated by load-and-clear-word (spin lock) or semop calls, whose
 * accesses go to a shared buffer pool (a {@code sharedFraction}) and to private data; some slices hold a disk read
 * (or write) of {@code ioBytes} into a buffer of the pool. Call times follow a real-time model: 240 instructions
 * per µs (120 MHz, IPC 2), disk I/O 10 ms + bytes at 20 MB/s, a semop blocking 0–200 µs, processes starting within
 * the first millisecond. Deterministic: the same parameters give the same bytes.
 */
public final class ProcessGen {
    /** Shared buffer pool base address. */
    public static final long POOL = 0x1000_0000L;
    /** Process i's private data starts at PRIVATE + i * 0x0100_0000. */
    public static final long PRIVATE = 0x2000_0000L;
    /** Spin-lock words (ldcw) at LOCKS + 16 i. */
    public static final long LOCKS = 0x0F00_0000L;

    /** Generator parameters; defaults in the field initializers. */
    public static final class Params {
        /** Processes (trace files). */
        public int processes = 8;
        /** Slices per process. */
        public int slices = 100;
        /** Mean memory accesses per slice (uniform between half and one and a half times this). */
        public long sliceInstructions = 2000;
        /** Fraction of accesses to the shared buffer pool. */
        public double sharedFraction = 0.2;
        /** Bytes of the shared buffer pool. */
        public long poolBytes = 4 << 20;
        /** Probability that a slice holds a disk read. */
        public double readRate = 0.1;
        /** Probability that a slice holds a disk write. */
        public double writeRate = 0.02;
        /** Bytes per disk read or write. */
        public long ioBytes = 64 << 10;
        /** Random seed. */
        public long seed = 1;
        /** Compression of the files. */
        public Codec codec = Codec.NONE;

        /** Checks ranges. */
        public void validate() {
            ForkJoinGen.check(processes >= 1 && processes <= ForkJoinGen.MAX_REGIONS, "processes", processes,
                    "1.." + ForkJoinGen.MAX_REGIONS + " (private regions of 16 MiB from 0x20000000 fit 32-bit addresses)");
            ForkJoinGen.check(slices >= 1, "slices", slices, "1 or more");
            ForkJoinGen.check(sliceInstructions >= 1, "slice instructions", sliceInstructions, "1 or more");
            ForkJoinGen.check(sharedFraction >= 0 && sharedFraction <= 1, "shared fraction", sharedFraction, "0..1");
            ForkJoinGen.check(readRate >= 0 && readRate <= 1, "read rate", readRate, "0..1");
            ForkJoinGen.check(writeRate >= 0 && writeRate <= 1, "write rate", writeRate, "0..1");
            ForkJoinGen.check(ioBytes >= 1 && ioBytes <= 0xFFFF_FFFFL, "I/O bytes", ioBytes, "1..4294967295");
            ForkJoinGen.check(poolBytes >= 64 && poolBytes <= 0x0F00_0000L, "pool bytes", poolBytes, "64..251658240");
        }
    }

    private ProcessGen() {
    }

    /** Writes the trace set {@code dir/NAME.T} and returns it. */
    public static TraceSet write(Path dir, String name, Params p) {
        p.validate();
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < p.processes; i++) {
            Path f = dir.resolve(TraceSet.fileName(name, p.processes, i));
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic().codec(p.codec).background(true)
                    .endRecord(true))) {
                process(p, i, w);
                w.finish();
            } catch (IOException e) {
                throw new UncheckedIOException(f + ": cannot write: " + e.getMessage(), e);
            }
            files.add(f);
        }
        return TraceSet.of(dir.resolve(name + "." + p.processes).toString(), files);
    }

    private static void process(Params p, int i, TraceWriter w) {
        SplittableRandom rnd = new SplittableRandom(p.seed * 0x9E3779B97F4A7C15L + i);
        double us = rnd.nextInt(1000);
        long priv = 0;
        long pool = p.poolBytes / 8;
        for (int s = 0; s < p.slices; s++) {
            long n = p.sliceInstructions / 2 + rnd.nextLong(p.sliceInstructions + 1);
            long ioAt = -1;
            boolean read = false;
            if (rnd.nextDouble() < p.readRate) {
                ioAt = rnd.nextLong(n + 1);
                read = true;
            } else if (rnd.nextDouble() < p.writeRate) {
                ioAt = rnd.nextLong(n + 1);
            }
            for (long k = 0; k <= n; k++) {
                if (k == ioAt) {
                    long buf = POOL + 8 * rnd.nextLong(pool);
                    double d = 10_000 + p.ioBytes / 20.0;
                    w.call(read ? CallType.FILE_READ : CallType.FILE_WRITE, (long) us, (long) (us + d), buf,
                            p.ioBytes, 3 + i, 0);
                    us += d;
                }
                if (k == n) {
                    break;
                }
                boolean store = rnd.nextInt(3) == 0;
                int size = rnd.nextInt(4) == 0 ? 1 : 4;
                if (rnd.nextDouble() < p.sharedFraction) {
                    w.memory(store ? MemType.STORE : MemType.LOAD, size, MemType.FIXED, POOL + 8 * rnd.nextLong(pool));
                } else {
                    w.memory(store ? MemType.STORE : MemType.LOAD, size, MemType.FIXED, PRIVATE + i * 0x0100_0000L
                            + priv);
                    priv = (priv + 8) % (64 << 10);
                }
                us += 1 / 240.0;
            }
            if (rnd.nextBoolean()) {
                long lock = LOCKS + 16L * rnd.nextInt(8);
                w.call(CallType.LDCW, (long) us, (long) us + 1, lock, 0, 0, 0);
                us += 1;
            } else {
                double d = rnd.nextInt(200);
                w.call(CallType.SEMOP, (long) us, (long) (us + d), 100, rnd.nextInt(8), rnd.nextBoolean() ? 1 : -1,
                        0);
                us += d;
            }
        }
    }
}
