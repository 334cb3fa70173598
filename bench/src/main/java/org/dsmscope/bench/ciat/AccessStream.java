package org.dsmscope.bench.ciat;

import java.util.SplittableRandom;
import org.dsmscope.trace.MemType;

/**
 * A generated, pre-materialized stream of data accesses in replay order (threads interleaved round-robin, as the
 * replay does when clocks tie), held in primitive arrays so that driving an analysis costs nothing but the
 * analysis. Two workloads: a 16-thread stream with 30% shared accesses, and a matrix-multiply-like stream.
 */
public final class AccessStream {
    /** Number of threads. */
    public final int threads;
    /** Accesses. */
    public final int length;
    /** Thread of each access. */
    public final byte[] thread;
    /** Address of each access. */
    public final long[] address;
    /** Size in bytes. */
    public final byte[] size;
    /** Type field (kind, size code, register type). */
    public final short[] type;

    private AccessStream(int threads, int length) {
        this.threads = threads;
        this.length = length;
        thread = new byte[length];
        address = new long[length];
        size = new byte[length];
        type = new short[length];
    }

    /** True if access {@code i} is a store. */
    public boolean store(int i) {
        return (type[i] & 0xF) == MemType.STORE;
    }

    /**
     * {@code threads} threads, {@code length} accesses, {@code sharedFraction} of them to words of a 4 MiB shared
     * array, the rest walking each thread's 1 MiB private array (sequential words and doubles with a random jump
     * every 64 accesses on average); 30% stores. Shared words are read in runs (sequential words from a random
     * start, a new start every {@code sharedRun} shared accesses on average; 1 = every shared access is a uniformly
     * random word).
     */
    public static AccessStream shared(int threads, int length, double sharedFraction, int sharedRun, long seed) {
        AccessStream s = new AccessStream(threads, length);
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] cursor = new long[threads];
        long[] sharedCursor = new long[threads];
        long privSize = 1 << 20;
        long sharedBase = 0x4000_0000L;
        int sharedWords = (4 << 20) / 4;
        for (int i = 0; i < length; i++) {
            int t = i % threads;
            boolean store = rnd.nextInt(100) < 30;
            long a;
            int sz;
            int reg;
            if (rnd.nextDouble() < sharedFraction) {
                if (sharedRun <= 1 || rnd.nextInt(sharedRun) == 0) {
                    sharedCursor[t] = rnd.nextInt(sharedWords);
                } else {
                    sharedCursor[t] = (sharedCursor[t] + 1) % sharedWords;
                }
                a = sharedBase + 4L * sharedCursor[t];
                sz = 4;
                reg = MemType.FIXED;
            } else {
                if (rnd.nextInt(64) == 0) {
                    cursor[t] = (rnd.nextLong(privSize) & ~7L);
                }
                boolean dbl = rnd.nextBoolean();
                sz = dbl ? 8 : 4;
                reg = dbl ? MemType.FLOAT : MemType.FIXED;
                cursor[t] = (cursor[t] + sz) & (privSize - 1) & ~(sz - 1L);
                a = 0x1000_0000L + t * 0x100_0000L + cursor[t];
            }
            s.thread[i] = (byte) t;
            s.address[i] = a;
            s.size[i] = (byte) sz;
            s.type[i] = (short) MemType.encode(store ? MemType.STORE : MemType.LOAD, sz, reg);
        }
        return s;
    }

    /**
     * A matrix multiply C = A × B of n × n doubles on {@code threads} threads, each computing n / threads rows:
     * per element of C, n loads of A's row and B's column and one store; threads interleaved access by access.
     */
    public static AccessStream matMul(int threads, int n) {
        int rows = n / threads;
        int perThread = rows * n * (2 * n + 1);
        AccessStream s = new AccessStream(threads, perThread * threads);
        long a = 0x1000_0000L;
        long b = a + 8L * n * n;
        long c = b + 8L * n * n;
        int ld = MemType.encode(MemType.LOAD, 8, MemType.FLOAT);
        int st = MemType.encode(MemType.STORE, 8, MemType.FLOAT);
        for (int t = 0; t < threads; t++) {
            int k = 0;
            for (int i = t * rows; i < (t + 1) * rows; i++) {
                for (int j = 0; j < n; j++) {
                    for (int x = 0; x < n; x++) {
                        put(s, (k++) * threads + t, t, a + 8L * (i * n + x), ld);
                        put(s, (k++) * threads + t, t, b + 8L * (x * n + j), ld);
                    }
                    put(s, (k++) * threads + t, t, c + 8L * (i * n + j), st);
                }
            }
        }
        return s;
    }

    private static void put(AccessStream s, int i, int t, long address, int type) {
        s.thread[i] = (byte) t;
        s.address[i] = address;
        s.size[i] = 8;
        s.type[i] = (short) type;
    }
}
