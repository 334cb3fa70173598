package org.dsmscope.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.util.List;
import java.util.function.LongSupplier;
import org.dsmscope.replay.Replay;
import org.dsmscope.trace.CallType;

/**
 * The replay's input for on-the-fly CIAT ({@link OnTheFlyCiat#analyseLive}): the agent's per-thread channels, the
 * run's first call time from the agent, no instruction-fetch records (the agent writes none), and the
 * synchronization variables learnt from the records as they are read: every channel is scanned for argument 1 of
 * the call records that have one ({@link CallType#hasSyncVariable}) before the replay sees them. The agent gives
 * synchronization records addresses that no data access has (agent/README.md "On-the-fly CIAT"), so the answer for
 * every access is the one the prescan of whole files gives.
 */
final class LiveSource implements Replay.Source {
    private final List<ReadableByteChannel> channels;
    private final LongSupplier firstCallTime;
    /*
     * Threads: a routed live replay scans each stream on its own router thread (add, under this source's lock) while
     * the partitions ask isSyncVariable without it. A table is published whole (volatile) when it grows, the bounds
     * only widen, and a partition has read, through its pipe, every record the router scanned before it: what it
     * asks about was added before, and visible.
     */
    private volatile long[] set = new long[64];
    private int size;
    private volatile boolean hasZero;
    private volatile long min = Long.MAX_VALUE;
    private volatile long max = Long.MIN_VALUE;
    /**
     * One bit per 4 KiB page below 4 GiB (the variables are 32-bit call arguments) that holds a variable: a data
     * access between min and max costs one bit test instead of a hash probe unless its page holds one.
     */
    private final long[] pages = new long[1 << 14];
    /** Bytes of records read by the replay (or the routers) so far, and when the progress property was last set. */
    private final java.util.concurrent.atomic.AtomicLong read = new java.util.concurrent.atomic.AtomicLong();
    private volatile long reported;
    /**
     * System property with the bytes of records the analysis has read so far (updated every 64 KiB), so that a
     * program, a test or a debugger can see that the analysis progresses while the program runs.
     */
    static final String PROGRESS = "dsmscope.live.analysed";

    /** Whether this source sets the {@link #PROGRESS} property (one source of a partitioned analysis does). */
    private final boolean reports;

    LiveSource(List<ReadableByteChannel> channels, LongSupplier firstCallTime, boolean reports) {
        this.channels = channels;
        this.firstCallTime = firstCallTime;
        this.reports = reports;
    }

    @Override
    public ReadableByteChannel channel(int thread) {
        return new Scan(channels.get(thread));
    }

    @Override
    public long firstCallTime() {
        return firstCallTime.getAsLong();
    }

    @Override
    public boolean hasFetch(int thread) {
        return false;
    }

    /** The agent's streams: a read into a buffer holding a call record's 48 bytes returns 0 when nothing came. */
    @Override
    public boolean polls() {
        return true;
    }

    @Override
    public boolean isSyncVariable(long a) {
        if (a < min || a > max) {
            return false;
        }
        if ((pages[(int) (a >>> 18)] & (1L << (a >>> 12))) == 0) {
            return false;
        }
        if (a == 0) {
            return hasZero;
        }
        long[] set = this.set;
        int m = set.length - 1;
        for (int i = hash(a) & m; set[i] != 0; i = (i + 1) & m) {
            if (set[i] == a) {
                return true;
            }
        }
        return false;
    }

    private static int hash(long a) {
        long h = a * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private synchronized void add(long a) {
        if (a < min) {
            min = a;
        }
        if (a > max) {
            max = a;
        }
        pages[(int) (a >>> 18)] |= 1L << (a >>> 12);
        if (a == 0) {
            hasZero = true;
            return;
        }
        if (insert(set, a) && ++size * 2 > set.length) {
            long[] grown = new long[set.length * 2];
            for (long v : set) {
                if (v != 0) {
                    insert(grown, v);
                }
            }
            set = grown;
        }
    }

    /** Puts {@code a} (not 0) into table {@code t}; false if it was there. */
    private static boolean insert(long[] t, long a) {
        int m = t.length - 1;
        int i = hash(a) & m;
        for (; t[i] != 0; i = (i + 1) & m) {
            if (t[i] == a) {
                return false;
            }
        }
        t[i] = a;
        return true;
    }

    /** A channel that notes argument 1 of synchronization calls in the bytes it passes (8-byte simple records). */
    private final class Scan implements ReadableByteChannel {
        private final ReadableByteChannel in;
        private final byte[] part = new byte[8];
        private int parts;

        Scan(ReadableByteChannel in) {
            this.in = in;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            int p0 = dst.position();
            int n = in.read(dst);
            if (n <= 0) {
                return n;
            }
            long all = read.addAndGet(n);
            if (reports && all - reported >= 64 << 10) {
                reported = all;
                System.setProperty(PROGRESS, Long.toString(all));
            }
            int i = p0;
            int end = p0 + n;
            while (parts > 0 && i < end) {
                part[parts++] = dst.get(i++);
                if (parts == 8) {
                    ByteBuffer w = ByteBuffer.wrap(part).order(dst.order());
                    word(w.getInt(0), w.getInt(4));
                    parts = 0;
                }
            }
            boolean le = dst.order() == ByteOrder.LITTLE_ENDIAN;
            for (; i + 8 <= end; i += 8) {
                int f1 = dst.getInt(i);
                if (le) {
                    f1 = Integer.reverseBytes(f1);
                }
                if ((f1 & 0xFFFFF00F) == 0x1002) {
                    int f2 = dst.getInt(i + 4);
                    word(f1, le ? Integer.reverseBytes(f2) : f2);
                }
            }
            while (i < end) {
                part[parts++] = dst.get(i++);
            }
            return n;
        }

        /** A simple record (fields in stream order): part 2 (argument 1) of a call record with a synchronization variable. */
        private void word(int f1, int f2) {
            if ((f1 & 0xFFFFF00F) == 0x1002 && CallType.hasSyncVariable((f1 >>> 4) & 0xFF)) {
                add(f2 & 0xFFFFFFFFL);
            }
        }

        @Override
        public boolean isOpen() {
            return in.isOpen();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
