package org.dsmscope.replay;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.dsmscope.trace.WordChannel;

/**
 * One thread's records for one partition of a routed replay ({@link RecordRouter}, {@link LiveRouter}), in process:
 * the router's {@link RoutedWriter} hands over whole blocks of words ({@link #block}: the array itself, no copy, no
 * bytes), the partition's {@code TraceReader} reads them ({@link #source}, a {@link WordChannel}), blocking until
 * more come. A hand-off never blocks, so a gap or a partition's share is always accepted; the router itself waits
 * for room, and only after it has handed every partition its share of what it has read: while a partition holds
 * more than the capacity unread, until that partition has drained the pipes it waits on to the low-water mark
 * ({@link Hold}, {@link Drain}), which wakes the router once instead of at every read. {@link #abort} wakes both
 * sides after a failure. Drained blocks go back to the router for its next words ({@link Spares}, one pool for the
 * pipes of a thread's chunks to a partition), so that routing allocates blocks only up to the most the pipes have
 * held at once, never per block handed over, and the collector copies the blocks held at most until they are old.
 */
final class RoutedPipe implements RoutedWriter.Sink {
    /** A block of words handed over: {@code n} words, the first {@code at} of them read. */
    private static final class Block {
        long[] w;
        int n;
        int at;
    }

    private final ArrayDeque<Block> blocks = new ArrayDeque<>();
    /** Drained blocks' holders, for {@link #block} (their arrays go to the drain's {@link Spares}). */
    private final ArrayDeque<Block> shells = new ArrayDeque<>();
    /** Notified when a partition has drained what a waiting router waits for (and when the pipe is wanted). */
    private final Object room;
    /** What the partition has read of this thread (shared by the pipes of a thread's chunks to one partition). */
    private final Drain drain;
    private long held;
    private boolean ended;
    private boolean aborted;
    /** The partition has ended: what it holds and what comes is dropped ({@link #release}). */
    private boolean released;
    /**
     * Partitions waiting on an empty pipe, counted by every pipe of a live routed replay ({@link #wanted}); null:
     * this pipe tells nothing (trace files).
     */
    private final AtomicInteger starving;
    /** True while the partition waits for records and none is here (only if {@link #starving} is counted). */
    private volatile boolean wanted;

    /** A pipe whose router waits on {@code room}, with a drain of its own. */
    RoutedPipe(Object room) {
        this(room, new Drain(), null);
    }

    /** A pipe whose reads count in {@code drain} (the partition's of the thread's chunk pipes). */
    RoutedPipe(Object room, Drain drain) {
        this(room, drain, null);
    }

    /**
     * A pipe whose router waits on {@code room}; {@code starving} (or null): a partition that finds it empty counts
     * itself there while it waits, is {@link #wanted}, and notifies {@code room} (a live router reads its stream
     * blocking once every partition waits so, {@link LiveIntake}).
     */
    RoutedPipe(Object room, AtomicInteger starving) {
        this(room, new Drain(), starving);
    }

    private RoutedPipe(Object room, Drain drain, AtomicInteger starving) {
        this.room = room;
        this.drain = drain;
        this.starving = starving;
    }

    /** True while the partition waits on this pipe, empty (a pipe made to tell its wants; else always false). */
    boolean wanted() {
        return wanted;
    }

    /** Bytes held (8 a word handed over, not yet read). */
    synchronized long held() {
        return held;
    }

    /** What the partition has read (of this pipe, and of the pipes sharing its drain). */
    Drain drain() {
        return drain;
    }

    /**
     * The partition has ended its replay: it holds nothing from now on and later hand-offs are dropped, and its
     * drain counts as read to the end, so that a router waiting for it goes on (and finishes its files).
     */
    void release() {
        synchronized (this) {
            released = true;
            blocks.clear();
            held = 0;
            satisfied();
        }
        drain.release(room);
    }

    /** Ends both sides after a failure elsewhere: reads then fail, hand-offs are dropped. */
    void abort() {
        synchronized (this) {
            aborted = true;
            notifyAll();
        }
        synchronized (room) {
            room.notifyAll();
        }
    }

    /**
     * The router's side: takes the first {@code n} words of {@code words}, appended to the last block if they fit
     * in it (a small hand-off: so that the blocks held stay full and the pipe's memory within about twice what it
     * holds), else as a block of their own, the array itself; returns the array to fill next (the same, a drained
     * one of the same length, or a new one).
     */
    @Override
    public long[] block(long[] words, int n) {
        if (n <= 0) {
            return words;
        }
        synchronized (this) {
            if (aborted || released) {
                return words;
            }
            Block last = blocks.peekLast();
            if (last != null && last.w.length - last.n >= n) {
                System.arraycopy(words, 0, last.w, last.n, n);
                last.n += n;
                held += (long) n << 3;
                satisfied();
                notifyAll();
                return words;
            }
            Block b = shells.poll();
            if (b == null) {
                b = new Block();
            }
            b.w = words;
            b.n = n;
            b.at = 0;
            blocks.add(b);
            held += (long) n << 3;
            satisfied();
            notifyAll();
        }
        return drain.spares.take(words.length);
    }

    /** The router's side: the stream has ended. */
    @Override
    public void end() {
        synchronized (this) {
            ended = true;
            notifyAll();
        }
    }

    /** Marks the pipe {@link #wanted} if it is empty and wakes the router (outside this pipe's lock: room first). */
    private void tellWant() {
        boolean tell;
        synchronized (this) {
            tell = blocks.isEmpty() && !ended && !aborted && !wanted;
            if (tell) {
                wanted = true;
                starving.incrementAndGet();
            }
        }
        if (tell) {
            synchronized (room) {
                room.notifyAll();
            }
        }
    }

    /** The partition has records again (or the end): no longer {@link #wanted}. Called holding this. */
    private void satisfied() {
        if (wanted) {
            wanted = false;
            starving.decrementAndGet();
        }
    }

    /** The partition's side. */
    WordChannel source() {
        return new WordChannel() {
            @Override
            public int read(long[] dst, int off, int max) throws IOException {
                if (starving != null) {
                    tellWant();
                }
                // a partition that waits for records gives its turn back (CoreTurns: more partitions than cores)
                // and takes one again before it goes on
                CoreTurns turns = CoreTurns.current();
                if (turns != null && empty()) {
                    turns.give();
                    try {
                        return take(dst, off, max);
                    } finally {
                        turns.take();
                    }
                }
                return take(dst, off, max);
            }
        };
    }

    /** True while nothing is here to read and the stream goes on (only the partition reads, so it stays so). */
    private synchronized boolean empty() {
        return blocks.isEmpty() && !ended && !aborted;
    }

    /** Copies up to {@code max} words held into {@code dst}, waiting until there are some; -1 at the end. */
    private int take(long[] dst, int off, int max) throws IOException {
        int n = 0;
        synchronized (this) {
            while (blocks.isEmpty() && !ended && !aborted) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for routed records", e);
                }
            }
            if (aborted) {
                throw new IOException("the routed replay stopped (another part failed)");
            }
            satisfied();
            if (blocks.isEmpty()) {
                return -1;
            }
            while (n < max && !blocks.isEmpty()) {
                Block b = blocks.peek();
                int k = Math.min(b.n - b.at, max - n);
                System.arraycopy(b.w, b.at, dst, off + n, k);
                b.at += k;
                n += k;
                if (b.at == b.n) {
                    blocks.poll();
                    drain.spares.give(b.w);
                    b.w = null;
                    shells.add(b);
                }
            }
            held -= (long) n << 3;
        }
        drain.read((long) n << 3, room);
        return n;
    }

    /**
     * Bytes a partition has read of one thread's pipes (of all its chunks), and the count at which a router waiting
     * for it is to be woken ({@link Hold}): the partition notifies {@code room} once when its reads reach it, not at
     * every read.
     */
    static final class Drain {
        /** Drained blocks of the pipes that count their reads here, for their router's next words. */
        final Spares spares = new Spares();
        private long read;
        private long wakeAt = Long.MAX_VALUE;

        /** The partition has read {@code bytes} more; wakes the routers waiting on {@code room} if one waits for it. */
        void read(long bytes, Object room) {
            boolean wake;
            synchronized (this) {
                read += bytes;
                wake = read >= wakeAt;
                if (wake) {
                    wakeAt = Long.MAX_VALUE;
                }
            }
            if (wake) {
                synchronized (room) {
                    room.notifyAll();
                }
            }
        }

        /** The partition has ended: it counts as having read everything; wakes the routers. */
        void release(Object room) {
            synchronized (this) {
                read = Long.MAX_VALUE / 2;
                wakeAt = Long.MAX_VALUE;
            }
            synchronized (room) {
                room.notifyAll();
            }
        }

        /** Bytes read so far. */
        synchronized long read() {
            return read;
        }

        /** True while fewer than {@code until} bytes are read; then a read that reaches it wakes the routers. */
        synchronized boolean before(long until) {
            if (read >= until) {
                return false;
            }
            wakeAt = Math.min(wakeAt, until);
            return true;
        }
    }

    /**
     * Drained blocks for a router's next words: one pool for the pipes of a thread's chunks to one partition (routers
     * of two chunks may hand over at once, so it has a lock of its own, taken inside a pipe's and never around
     * another). It keeps every block given back: the blocks in existence stay at the most the pipes held at once.
     */
    static final class Spares {
        private final ArrayDeque<long[]> free = new ArrayDeque<>();

        /** A drained block of {@code words} words, or a new one. */
        long[] take(int words) {
            long[] b;
            synchronized (this) {
                b = free.poll();
            }
            return b != null && b.length == words ? b : new long[words];
        }

        /** A block whose words were all read. */
        synchronized void give(long[] block) {
            free.add(block);
        }
    }

    /**
     * A router's wait for room (module README "Back-pressure without deadlock"): a chunk (or a live stream) stops
     * when a partition holds more than the capacity unread in its pipes before what the router routes next, and goes
     * on once that partition has read down to the low-water mark, half the capacity; the partition's read that gets
     * there wakes the router ({@link Drain}). Since the partition still holds unread records of the thread while the
     * router waits, it is behind the router's next records, as with a wait for the capacity alone: no deadlock.
     */
    static final class Hold {
        private Drain drain;
        private long until;

        /** The low-water mark of a capacity. */
        static long low(long cap) {
            return cap / 2;
        }

        /**
         * Waits (from now on, until {@link #waiting} says otherwise) for the partition of {@code drain}, which had
         * read {@code read} bytes when it held {@code held} (taken after {@code read}), to hold at most {@code low}.
         */
        void start(Drain drain, long read, long held, long low) {
            this.drain = drain;
            this.until = read + held - low;
        }

        /** True while the partition waited for has not read down to the low-water mark (its read then wakes us). */
        boolean waiting() {
            if (drain == null) {
                return false;
            }
            if (drain.before(until)) {
                return true;
            }
            drain = null;
            return false;
        }
    }
}
