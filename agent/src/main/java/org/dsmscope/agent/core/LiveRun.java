package org.dsmscope.agent.core;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.dsmscope.agent.sink.AnalysisSink;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.TraceSet;

/**
 * On-the-fly analysis while the program runs ({@code to_ciat} with {@code threads=P}, seed 000 §2, SPEC §1 and
 * §3): P {@link LiveStream}s, one per traced thread, read by the analysis sink on the agent's thread
 * {@code dsmscope-analysis} (and threads of the sink's: as many readers of every stream as the sink asks for,
 * {@link AnalysisSink#liveReaders}); a timer ({@code dsmscope-flush}) that every
 * {@code -Ddsmscope.live.flushMs} (100 ms) hands over the records of threads that filled no buffer since its last tick (blocked or slow threads, on which
 * the pseudo-clock replay would otherwise stall); the in-memory budget
 * ({@code -Ddsmscope.live.budget=BYTES}, default the smaller of 64 MiB and an eighth of the heap) beyond which
 * producers wait for the analysis, or, when waiting could deadlock, spill chunks, compressed, to a private directory
 * {@code .dsmscope-live-*} beside NAME (or {@code -Ddsmscope.spill.dir}) ({@link #admit}); and the end of the run,
 * which ends every stream and waits for the analysis.
 */
final class LiveRun {
    private final AgentOptions o;
    private final int p;
    /** Readers of every stream (the sink's partitions, each replaying the whole run). */
    private final int readers;
    /** How spilled chunks are compressed (the {@code codec} option). */
    private final SpillCodec spillCodec;
    private final LiveStream[] streams;
    private final long[] firstCall;
    private final long budget;
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong spilled = new AtomicLong();
    /** Producers wait for the analysis instead of spilling while it is at work ({@link #admit}). */
    private final boolean backpressure = org.dsmscope.trace.SystemProperties.booleanValue(
            Bootstrap.BACKPRESSURE, true);
    /** Longest single wait of a producer before it looks again (a missed wake-up costs no more). */
    private static final long WAIT_MS = 20;
    /** Guards the counts below; producers wait on it. */
    private final Object budgetLock = new Object();
    /** Readers waiting for records now, counting those that have not begun to read ({@link #started}). */
    private int waitingReaders;
    /** Per reader, whether it has begun to read (before, it frees nothing: producers must not wait for it). */
    private final boolean[] started;
    /** Readers that closed every stream. */
    private int doneReaders;
    /** Per reader, the streams whose channel it closed. */
    private final int[] closedStreams;
    /**
     * Per reader and thread, whether the reader waits for the thread's stream to be made (guarded by this): a
     * reader may wait for several at once, on threads of its own (a routed analysis reads each stream on its own
     * router thread), each counted once.
     */
    private final boolean[][] waitingFor;
    private volatile boolean dead;
    private volatile boolean over;
    private Path spillDir;
    private final boolean keep = org.dsmscope.trace.SystemProperties.booleanValue(Bootstrap.SPILL_KEEP, false);
    private final Thread analysis;
    private final Thread timer;
    private volatile List<Path> written;
    private volatile Throwable failure;

    private LiveRun(AgentOptions o, AnalysisSink sink, PrintStream err) {
        this.o = o;
        this.p = o.threads;
        this.readers = Math.max(1, Math.min(1024, sink.liveReaders(o.analysisType(), o.analysisOptions, o.level)));
        this.spillCodec = SpillCodec.of(o.codec);
        streams = new LiveStream[p];
        closedStreams = new int[readers];
        started = new boolean[readers];
        waitingReaders = readers;
        waitingFor = new boolean[readers][p];
        firstCall = new long[p];
        java.util.Arrays.fill(firstCall, -1);
        budget = org.dsmscope.trace.SystemProperties.longValue(Bootstrap.BUDGET,
                Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8), 0, Long.MAX_VALUE);
        analysis = new Thread(new Runnable() {
            @Override
            public void run() {
                analyse(sink, err);
            }
        }, "dsmscope-analysis");
        analysis.setDaemon(true);
        analysis.setContextClassLoader(sink.getClass().getClassLoader());
        long period = org.dsmscope.trace.SystemProperties.longValue(Bootstrap.FLUSH_MS, 100, 1, Long.MAX_VALUE);
        timer = new Thread(new Runnable() {
            @Override
            public void run() {
                while (!over) {
                    try {
                        Thread.sleep(period);
                    } catch (InterruptedException e) {
                        return;
                    }
                    TraceRuntime.publishIdle();
                }
            }
        }, "dsmscope-flush");
        timer.setDaemon(true);
    }

    /** Creates the run; {@link #begin} starts its threads once they are registered as the agent's own. */
    static LiveRun create(AgentOptions o, AnalysisSink sink, PrintStream err) {
        return new LiveRun(o, sink, err);
    }

    /** The analysis and timer threads (to be registered as untraced before {@link #begin}). */
    Thread[] threads() {
        return new Thread[] {analysis, timer};
    }

    void begin() {
        analysis.start();
        timer.start();
    }

    /** The stream thread {@code index} writes to; null if {@code index >= threads} (that thread is not traced). */
    synchronized OutputStream stream(int index) throws IOException {
        if (index >= p) {
            return null;
        }
        OutputStream k = null;
        if (keep) {
            k = Codec.parse(o.codec).encode(new FileOutputStream(spillDir().resolve(index + ".smait").toFile()));
        }
        LiveStream s = new LiveStream(this, index, k, readers, spillCodec);
        streams[index] = s;
        for (int r = 0; r < readers; r++) {
            if (waitingFor[r][index]) {
                waitingFor[r][index] = false;
                readerWaits(false);
            }
        }
        notifyAll();
        return s;
    }

    /** The first call record's start time of thread {@code index} (its start-of-trace record), µs. */
    synchronized void firstCall(int index, long us) {
        firstCall[index] = us & 0xFFFFFFFFL;
    }

    /** The run's first call time: the smallest first start time, as the prescan of files computes it. */
    private synchronized long firstCallTime() {
        long m = Long.MAX_VALUE;
        for (long f : firstCall) {
            if (f >= 0) {
                m = Math.min(m, f);
            }
        }
        return m == Long.MAX_VALUE ? 0 : m;
    }

    private void analyse(AnalysisSink sink, PrintStream err) {
        List<List<ReadableByteChannel>> byReader = new ArrayList<>(readers);
        List<ReadableByteChannel> chans = new ArrayList<>(p * readers);
        for (int r = 0; r < readers; r++) {
            List<ReadableByteChannel> one = new ArrayList<>(p);
            for (int t = 0; t < p; t++) {
                one.add(channel(r, t));
            }
            byReader.add(one);
            chans.addAll(one);
        }
        try {
            written = sink.analyseLive(o.analysisType(), o.name + "." + p, byReader, new java.util.function.LongSupplier() {
                @Override
                public long getAsLong() {
                    return firstCallTime();
                }
            }, o.analysisOptions, err);
        } catch (Throwable t) {
            failure = t;
            dead = true;
            synchronized (budgetLock) {
                budgetLock.notifyAll();
            }
        } finally {
            for (ReadableByteChannel c : chans) {
                try {
                    c.close();
                } catch (IOException e) {
                    // nothing to release
                }
            }
        }
    }

    /**
     * Reader r's channel of thread t; the stream may not exist yet (thread not started): the first read waits for
     * it.
     */
    ReadableByteChannel channel(int r, int t) {
        return new ReadableByteChannel() {
            private ReadableByteChannel in;
            private boolean closed;

            private ReadableByteChannel in() throws IOException {
                if (in == null) {
                    synchronized (LiveRun.this) {
                        while (streams[t] == null) {
                            waitingFor[r][t] = true;
                            readerWaits(true);
                            try {
                                LiveRun.this.wait();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                throw new java.io.InterruptedIOException("on-the-fly analysis interrupted");
                            } finally {
                                if (waitingFor[r][t]) {
                                    waitingFor[r][t] = false;
                                    readerWaits(false);
                                }
                            }
                        }
                        in = streams[t].channel(r);
                    }
                }
                return in;
            }

            @Override
            public int read(java.nio.ByteBuffer dst) throws IOException {
                if (in == null) {
                    readerStarts(r);
                }
                return in().read(dst);
            }

            @Override
            public boolean isOpen() {
                return !closed;
            }

            @Override
            public void close() throws IOException {
                if (closed) {
                    return;
                }
                closed = true;
                synchronized (LiveRun.this) {
                    if (in == null && streams[t] != null) {
                        in = streams[t].channel(r);
                    }
                }
                if (in != null) {
                    in.close();
                } else {
                    readerStreamClosed(r);
                }
            }
        };
    }

    /** Takes {@code len} bytes of the in-memory budget; false if they do not fit. */
    private boolean reserve(int len) {
        if (queued.addAndGet(len) > budget) {
            queued.addAndGet(-len);
            return false;
        }
        return true;
    }

    /**
     * Whether a chunk of {@code len} bytes stays in memory (true: its bytes are taken from the budget) or spills.
     * While the budget is full the producer of stream {@code s} waits for the analysis to take chunks, as long as
     * some reader is at work; but a reader that waits for {@code s} itself gets the chunk in memory at once, up to
     * twice the budget (the replay takes threads in clock order, so the budget can be full of other threads'
     * chunks that wait for this one); it spills only once every reader that still reads waits for records (the
     * one they need may be behind this producer, or in a thread blocked on it: waiting longer could deadlock), or
     * with backpressure off ({@code -Ddsmscope.live.backpressure=false}: spill at once, never wait).
     */
    boolean admit(int len, LiveStream s) {
        if (reserve(len)) {
            return true;
        }
        if (!backpressure) {
            return false;
        }
        synchronized (budgetLock) {
            while (true) {
                // Readers that took the last chunks gave their bytes back before they counted themselves as
                // waiting (both under this lock), so look at the budget again before deciding to spill: the
                // readers may have emptied the queue since the first look.
                if (reserve(len)) {
                    return true;
                }
                if (dead || over || waitingReaders + doneReaders >= readers) {
                    return false;
                }
                if (s.awaited() && queued.get() + len <= 2 * budget) {
                    // a reader waits for this very stream: keep it in memory, up to twice the budget
                    queued.addAndGet(len);
                    return true;
                }
                try {
                    budgetLock.wait(WAIT_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
    }

    /** Takes bytes beyond the budget (a hint record: tiny, never spilled). */
    void force(int len) {
        queued.addAndGet(len);
    }

    /** Gives back a chunk's bytes when the analysis takes it; wakes waiting producers. */
    void release(int len) {
        queued.addAndGet(-len);
        synchronized (budgetLock) {
            budgetLock.notifyAll();
        }
    }

    /** A reader begins (true) or ends (false) a wait for records ({@link #admit}). */
    void readerWaits(boolean waits) {
        synchronized (budgetLock) {
            waitingReaders += waits ? 1 : -1;
            if (waits) {
                budgetLock.notifyAll();
            }
        }
    }

    /** Waits for records or streams counted now, and readers that have not begun to read (tests). */
    int waitingReaders() {
        synchronized (budgetLock) {
            return waitingReaders;
        }
    }

    /** Reader r reads (from now on it is at work, except while {@link #readerWaits}). */
    void readerStarts(int r) {
        synchronized (budgetLock) {
            if (!started[r]) {
                started[r] = true;
                waitingReaders--;
            }
        }
    }

    /** Reader r closed its channel of one stream; once it closed all of them it reads no more ({@link #admit}). */
    void readerStreamClosed(int r) {
        synchronized (budgetLock) {
            if (++closedStreams[r] == p) {
                doneReaders++;
                budgetLock.notifyAll();
            }
        }
    }

    /** Counts spilled bytes (uncompressed). */
    void spilled(int len) {
        spilled.addAndGet(len);
    }

    /** Bytes spilled so far (uncompressed). */
    long spilledBytes() {
        return spilled.get();
    }

    /** Bytes of chunks held in memory now (within the budget). */
    long queuedBytes() {
        return queued.get();
    }

    /** True once the analysis stopped: records are dropped. */
    boolean dead() {
        return dead;
    }

    /** The private spill directory, created on first use. */
    synchronized Path spillDir() throws IOException {
        if (spillDir == null) {
            spillDir = OnTheFly.spillDirectory(o.name, ".dsmscope-live-");
        }
        return spillDir;
    }

    /**
     * The end of the run (shutdown hook, every trace finished): ends the streams of threads that never started,
     * waits for the analysis and lists what it wrote.
     */
    void finish(int traced, PrintStream err) {
        over = true;
        synchronized (budgetLock) {
            budgetLock.notifyAll();
        }
        timer.interrupt();
        synchronized (this) {
            for (int t = 0; t < p; t++) {
                if (streams[t] == null) {
                    try {
                        stream(t);
                    } catch (IOException e) {
                        continue;
                    }
                    streams[t].endUnused();
                }
            }
        }
        try {
            analysis.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Throwable f = failure;
        if (traced < p) {
            TraceRuntime.warn(o.analysisType() + ": threads=" + p + ", but the run traced " + traced + " thread"
                    + (traced == 1 ? "" : "s") + ": no report (give threads=" + traced + ", or no thread count to"
                    + " analyse at the end of the run)");
        } else if (f instanceof IllegalArgumentException) {
            TraceRuntime.analysisFailed(o.analysisType() + ": " + unkept(f.getMessage()));
        } else if (f != null) {
            TraceRuntime.analysisFailed(o.analysisType() + ": the analysis failed: " + unkept(f.toString()));
        } else if (!o.quiet) {
            StringBuilder out = new StringBuilder("On-the-fly " + o.analysisTool() + " of " + p + " thread" + (p == 1 ? "" : "s")
                    + " (analysed while the program ran");
            long s = spilled.get();
            out.append(s > 0 ? "; " + s + " bytes of records spilled to disk beyond the " + budget + "-byte budget"
                    : "").append(") stored in:\n");
            for (Path w : written) {
                out.append("\tfile ").append(w).append('\n');
            }
            err.print(out);
            err.flush();
        }
        cleanUp(traced);
    }

    /**
     * A failed live analysis's message: it names each thread's stream {@code NAME.p.t}, a file that does not exist
     * (the records were analysed as they came and are not kept), so it says so instead.
     */
    private String unkept(String msg) {
        String m = msg;
        for (int t = p - 1; t >= 0; t--) {
            m = m.replace(Paths.get(o.name + "." + p + "." + t).toString(), "thread " + t + "'s records");
        }
        return m + " (analysed while the program ran, the records are not kept: trace with --type compressed to"
                + " keep them, then run the analysis on the files)";
    }

    private void cleanUp(int traced) {
        Path d;
        synchronized (this) {
            d = spillDir;
        }
        if (d == null) {
            return;
        }
        for (int t = 0; t < p; t++) {
            Path f = d.resolve(t + ".smait");
            try {
                if (keep && t < traced) {
                    Files.move(f, Paths.get(TraceSet.fileName(o.name, p, t)), StandardCopyOption.REPLACE_EXISTING);
                } else {
                    Files.deleteIfExists(f);
                }
            } catch (IOException e) {
                TraceRuntime.warn("cannot delete " + f + ": " + e.getMessage());
            }
        }
        try {
            Files.deleteIfExists(d);
        } catch (IOException e) {
            TraceRuntime.warn("cannot delete " + d + ": " + e.getMessage());
        }
    }
}
