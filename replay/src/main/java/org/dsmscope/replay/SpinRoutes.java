package org.dsmscope.replay;

/**
 * What a routed run gives the partition that detects spins (SPEC §5 "Concurrency", ciat/README.md "Spin time",
 * replay/README.md "Partitioned replay"), decided by the prescan ({@link RouteCheck}) so that the partition's
 * {@link SpinDetector} decides exactly as a serial run's. The detector's decisions depend on each thread's loads,
 * stores, calls and waits and on the phase ends, but only through the loops long enough to be spins: such a loop
 * lies in a window of loads that {@link RouteCheck} finds on the thread's own records (the replay's waits and phase
 * ends only cut runs shorter), and a store matters only where it touches the locations of such a loop (it confirms
 * a spin, or is remembered for one that starts later). So the partition gets every access of each thread with such
 * a window ({@link #threads}: its loops there, long or short, run as in the serial run), and of the other threads,
 * whose loops never get long, their stores to the windows' locations (the watch set, as 8-byte blocks; past
 * {@value #MAX_BLOCKS} blocks every store). Its analysis feeds the detector those threads' accesses and every store
 * it gets (an extra store touches no long loop's locations, so it changes nothing) and no other load.
 *
 * <p>A marker that stops or resumes all threads (command 3 or 4) takes records out of other threads' runs at
 * places their files do not show, which can join two runs into one long enough: then every thread is given.
 */
final class SpinRoutes implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** The most 8-byte blocks the watch set holds; past it, every store goes to the detecting partition. */
    static final int MAX_BLOCKS = 1 << 16;
    /** Per thread: every access of it goes to the detecting partition. */
    final boolean[] threads;
    /** The watch set (8-byte blocks, value 0), or null: every store. */
    private final LongIntMap blocks;
    private final boolean any;

    private SpinRoutes(boolean[] threads, LongIntMap blocks) {
        this.threads = threads;
        this.blocks = blocks;
        boolean a = false;
        for (boolean b : threads) {
            a |= b;
        }
        this.any = a;
    }

    /**
     * The routes for the threads in {@code spins} (each with a possible spin) and the locations collected in
     * {@code watch}; with {@code stopsAll} (a marker stops all threads somewhere) every thread.
     */
    static SpinRoutes of(boolean[] spins, Builder watch, boolean stopsAll) {
        boolean[] t = spins.clone();
        boolean some = false;
        for (boolean b : t) {
            some |= b;
        }
        if (stopsAll) {
            java.util.Arrays.fill(t, true);
            some = true;
        }
        return new SpinRoutes(t, !some || watch.full ? null : watch.blocks);
    }

    /** True if some thread may spin: without it the detecting partition needs nothing more. */
    boolean any() {
        return any;
    }

    /** True if a store of {@code size} bytes at {@code address} may touch a location of a possible spin. */
    boolean watches(long address, int size) {
        LongIntMap b = blocks;
        if (b == null) {
            return true;
        }
        long last = (address + Math.max(size, 1) - 1) >>> 3;
        for (long k = address >>> 3; ; k++) {
            if (b.get(k) >= 0) {
                return true;
            }
            if (k == last) {
                return false;
            }
        }
    }

    /** Collects the watch set of one prescan worker (capped at {@value #MAX_BLOCKS} blocks). */
    static final class Builder {
        LongIntMap blocks = new LongIntMap(64);
        boolean full;

        /** Adds the 8-byte blocks of a location of {@code bytes} bytes at {@code address}. */
        void addLocation(long address, int bytes) {
            if (full) {
                return;
            }
            long last = (address + Math.max(bytes, 1) - 1) >>> 3;
            for (long k = address >>> 3; ; k++) {
                blocks.put(k, 0);
                if (k == last) {
                    break;
                }
            }
            if (blocks.size() > MAX_BLOCKS) {
                full = true;
                blocks = null;
            }
        }

        /** Adds another worker's set. */
        void addAll(Builder o) {
            if (o.full) {
                full = true;
                blocks = null;
            }
            if (full) {
                return;
            }
            o.blocks.forEachKey(k -> blocks.put(k, 0));
            if (blocks.size() > MAX_BLOCKS) {
                full = true;
                blocks = null;
            }
        }
    }

    /**
     * A router ({@link Replay.Router}) that gives {@code inner}'s {@link Replay.Router#spinPartition} also what its
     * detector needs ({@link #route(int, long, int, boolean, int[])}); {@link RouteSplitter} asks it with the
     * access's kind.
     */
    static final class Routing implements Replay.Router {
        private final Replay.Router inner;
        private final SpinRoutes spins;
        private final int part;

        private Routing(Replay.Router inner, SpinRoutes spins, int part) {
            this.inner = inner;
            this.spins = spins;
            this.part = part;
        }

        /**
         * {@code inner}, made to give its spin partition what the detector there needs, or {@code inner} itself
         * where it detects no spins or no thread can spin ({@code spins} null: not checked).
         */
        static Replay.Router of(Replay.Router inner, SpinRoutes spins, int parts) {
            int p = inner.spinPartition();
            if (p < 0 || spins == null || !spins.any()) {
                return inner;
            }
            if (p >= parts) {
                throw new IllegalArgumentException("spin partition " + p + " of " + parts);
            }
            return new Routing(inner, spins, p);
        }

        @Override
        public int route(int thread, long address, int size, int[] to) {
            return inner.route(thread, address, size, to);
        }

        /** As {@link #route(int, long, int, int[])}, with the spin partition added where its detector needs it. */
        int route(int thread, long address, int size, boolean store, int[] to) {
            int n = inner.route(thread, address, size, to);
            if (spins.threads[thread] || store && spins.watches(address, size)) {
                for (int i = 0; i < n; i++) {
                    if (to[i] == part) {
                        return n;
                    }
                }
                to[n++] = part;
            }
            return n;
        }

        @Override
        public int fill() {
            return inner.fill();
        }

        @Override
        public int spinPartition() {
            return part;
        }

        @Override
        public int blockBits() {
            return inner.blockBits();
        }

        /**
         * True if every access of thread {@code thread} gets the spin partition besides {@code inner}'s: its answer
         * is then decided by block as {@code inner}'s is ({@link Replay.Router#blockBits}).
         */
        boolean everyAccess(int thread) {
            return spins.threads[thread];
        }

        @Override
        public Replay.Router forChunk() {
            Replay.Router c = inner.forChunk();
            return c == inner ? this : new Routing(c, spins, part);
        }
    }
}
