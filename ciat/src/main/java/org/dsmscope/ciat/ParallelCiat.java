package org.dsmscope.ciat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.SpinDetector;
import org.dsmscope.replay.WorkProfile;
import org.dsmscope.trace.TraceSet;

/**
 * CIAT on several cores from one replay (SPEC §4 "Partitioning once clocks are assigned", issue 4 "Speed and
 * memory"). This analysis runs on the replay thread as a dispatcher: it appends every callback to a preallocated
 * {@link RecordBatch} (packed words; accesses without their clocks unless the event trace is on) and hands full batches to N worker threads through bounded queues; batches come back to a
 * fixed pool when every worker has read them, so a slow worker stalls the replay (back-pressure) and memory stays
 * at pool × batch size. Worker k runs a {@link Ciat} as partition k of N: it keeps the communication and
 * memory-usage state of the 4 KiB pages with page number mod N = k, the access-age streams of threads (t + 1) mod N = k
 * (global scope: worker N - 1) and the access mix of the same threads, and worker 0 also counts the other records
 * (instruction stream, calls, times). Records reach every worker in replay order, so phase boundaries need no barrier: each worker
 * closes its phase statistics at the phase-end record, and {@link Partitioned#merge} combines them per phase
 * (page-crossing accesses by access number, events by access number) into exactly a serial run's results.
 * Synchronization variables are looked up on the replay thread (the replay's context is not shared with workers).
 * {@code dsmscope ciat} uses it for live streams (on-the-fly CIAT), which can be read once; trace files are replayed
 * once per partition instead ({@code Replay.runInPartitions}), which costs a replay per partition but hands nothing
 * between threads (module README "Parallel analysis").
 */
public final class ParallelCiat implements Analysis, AutoCloseable {
    /** Records per batch (fewer hand-overs than 8192: see the module README). */
    static final int BATCH = 32768;

    private final CiatOptions opt;
    private final int n;
    private final int batchSize;
    private final int poolSize;
    /** Each worker's CIAT, made and begun on the worker's own thread (see {@link Worker#run}). */
    private Ciat[] made;
    private final List<Worker> workers = new ArrayList<>();
    private BlockingQueue<RecordBatch> free;
    private RecordBatch cur;
    private ReplayContext ctx;
    /** Spin-wait detection on the replay thread (the workers see no clocks); booked into the times handed on. */
    private SpinDetector spin;
    private volatile Throwable failure;
    private boolean ended;
    private CiatResult result;
    private final List<Path> written = new ArrayList<>();

    /** CIAT with options {@code opt} (validated here) on {@code workers} ≥ 1 worker threads. */
    public ParallelCiat(CiatOptions opt, int workers) {
        this(opt, workers, BATCH, 4 * workers + 2);
    }

    /** With explicit batch size and number of batches (tests use small ones to cross many batch boundaries). */
    ParallelCiat(CiatOptions opt, int workers, int batchSize, int batches) {
        opt.validate();
        if (workers < 1 || batchSize < 2 || batches < 1) {
            throw new IllegalArgumentException("workers " + workers + ", batch " + batchSize + ", batches " + batches);
        }
        this.opt = opt;
        this.n = workers;
        this.batchSize = batchSize;
        this.poolSize = batches;
    }

    @Override
    public boolean wantsWorkProfile() {
        return true;
    }

    @Override
    public void begin(ReplayContext c) {
        this.ctx = c;
        free = new ArrayBlockingQueue<>(poolSize);
        for (int i = 0; i < poolSize - 1; i++) {
            free.add(new RecordBatch(batchSize, opt.events));
        }
        cur = new RecordBatch(batchSize, opt.events);
        made = new Ciat[n];
        spin = new SpinDetector(c.threads(), null);
        for (int k = 0; k < n; k++) {
            workers.add(new Worker(k, new WorkerContext(c.threads(), c.processors(), c.traces(), k, n,
                    c.workProfile())));
        }
        for (Worker w : workers) {
            w.thread.start();
        }
    }

    private RecordBatch room() {
        if (cur.full()) {
            flush();
        }
        return cur;
    }

    /** Hands the current batch to every worker and takes an empty one from the pool (waiting if none is free). */
    private void flush() {
        if (cur.n == 0) {
            return;
        }
        cur.readers.set(n);
        for (Worker w : workers) {
            w.queue.add(cur);
        }
        try {
            cur = free.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("ciat: interrupted while waiting for the analysis workers", e);
        }
        rethrow();
    }

    private void rethrow() {
        Throwable t = failure;
        if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        } else if (t instanceof Error) {
            throw (Error) t;
        } else if (t != null) {
            throw new IllegalStateException("ciat worker failed: " + t, t);
        }
    }

    @Override
    public void phaseBegin(Phase phase) {
        Phase copy = new Phase(phase.id(), phase.kind(), phase.startClock(), phase.markerNum());
        room().control(RecordBatch.PHASE_BEGIN, copy, null);
    }

    @Override
    public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
        spin.access(thread, clock, size, store, address);
        room().access(thread, cpu, clock, memType, size, store, address, size > 0 && ctx.isSyncVariable(address));
    }

    @Override
    public void fetch(int thread, int cpu, long clock, long address, int size) {
        room().fetch(thread, cpu, clock, address, size);
    }

    @Override
    public void branch(int thread, int cpu, long clock, int kind, long source, long target) {
        room().branch(thread, cpu, clock, kind, source, target);
    }

    @Override
    public void call(int thread, int cpu, long clock, CallEvent call) {
        spin.call(thread);
        room().call(thread, cpu, clock, call);
    }

    @Override
    public void phaseEnd(Phase phase, PhaseTimes times) {
        Phase copy = new Phase(phase.id(), phase.kind(), phase.startClock(), phase.markerNum());
        copy.end(phase.endClock());
        spin.phaseEnd();
        PhaseTimes booked = copyOf(times);
        if (booked != null) {
            spin.book(booked, true, opt.spinAsWait);
        }
        room().control(RecordBatch.PHASE_END, copy, booked);
    }

    @Override
    public void waited(int thread, int cpu, long from, long to, int reason) {
        spin.waited(thread);
    }

    private PhaseTimes copyOf(PhaseTimes t) {
        if (t == null) {
            return null;
        }
        PhaseTimes c = new PhaseTimes(t.threads());
        c.add(t);
        return c;
    }

    @Override
    public void end(ReplayContext c, PhaseTimes total) {
        spin.end();
        PhaseTimes booked = copyOf(total);
        if (booked != null) {
            spin.book(booked, false, opt.spinAsWait);
        }
        room().control(RecordBatch.END, null, booked);
        flush();
        ended = true;
        join();
        rethrow();
        List<Ciat> parts = java.util.Arrays.asList(made);
        if (opt.writeFiles) {
            result = Partitioned.mergeAndWrite(parts, c, written);
        } else {
            result = Partitioned.merge(parts).withProblems(c.problems(), c.problemCount());
            for (Ciat p : parts) {
                if (p.seqEvents() != null) {
                    p.seqEvents().delete();
                }
            }
        }
    }

    private void join() {
        for (Worker w : workers) {
            try {
                w.thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("ciat: interrupted while waiting for the analysis workers", e);
            }
        }
    }

    /** Stops the workers if the replay ended without {@link #end} (an error); harmless after {@code end}. */
    @Override
    public void close() {
        if (!ended) {
            ended = true;
            for (Worker w : workers) {
                w.thread.interrupt();
            }
            join();
            for (Ciat p : made) {
                if (p != null && p.seqEvents() != null) {
                    p.seqEvents().close();
                    p.seqEvents().delete();
                }
            }
        }
    }

    /** The merged results, after {@link #end}. */
    public CiatResult result() {
        return result;
    }

    /** Files written, report first. */
    public List<Path> written() {
        return List.copyOf(written);
    }

    /** CPU time of each worker thread in ns, after {@link #end} (-1 where the JVM cannot measure thread CPU). */
    public long[] workerCpuNanos() {
        long[] t = new long[workers.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = workers.get(i).cpuNanos;
        }
        return t;
    }

    private static long cpuTime() {
        java.lang.management.ThreadMXBean b = java.lang.management.ManagementFactory.getThreadMXBean();
        return b.isCurrentThreadCpuTimeSupported() ? b.getCurrentThreadCpuTime() : -1;
    }

    /** Number of worker threads. */
    public int workers() {
        return n;
    }

    /** One worker: feeds every batch to its partition's CIAT. */
    private final class Worker implements Runnable, RecordBatch.Reader {
        final BlockingQueue<RecordBatch> queue;
        private final int k;
        private Ciat ciat;
        final Thread thread;
        private final CallEvent event = new CallEvent();
        private final WorkerContext wctx;
        /** CPU time this worker used, ns (-1 if unmeasured), written before the thread ends. */
        volatile long cpuNanos = -1;

        Worker(int k, WorkerContext wctx) {
            this.queue = new ArrayBlockingQueue<>(poolSize);
            this.k = k;
            this.wctx = wctx;
            this.thread = new Thread(this, "ciat-worker-" + k);
            thread.setDaemon(true);
        }

        /**
         * Makes and begins this partition's CIAT here, not on the replay thread: state made one partition after the
         * other by one thread lies side by side, and two workers writing fields in one cache line (a per-access
         * counter of one beside another's) slow each other on every record. Then feeds it every batch.
         */
        @Override
        public void run() {
            try {
                ciat = new Ciat(opt);
                ciat.begin(wctx);
                made[k] = ciat;
            } catch (Throwable t) {
                failure = t;
            }
            try {
                while (true) {
                    RecordBatch b = queue.take();
                    boolean last = b.lastKind == RecordBatch.END;
                    if (failure == null) {
                        try {
                            feed(b);
                        } catch (Throwable t) {
                            failure = t;
                        }
                    }
                    if (b.readers.decrementAndGet() == 0) {
                        b.clear();
                        free.add(b);
                    }
                    if (last) {
                        cpuNanos = cpuTime();
                        return;
                    }
                }
            } catch (InterruptedException e) {
                // close(): the replay failed; the results are abandoned
            }
        }

        private void feed(RecordBatch b) {
            b.read(this);
        }

        @Override
        public void access(int t, int cpu, long clock, int memType, int size, boolean store, long address,
                boolean sync) {
            ciat.access(t, cpu, clock, memType, size, store, address, sync);
        }

        @Override
        public void fetch(int t, int cpu, long clock, long address, int size) {
            ciat.fetch(t, cpu, clock, address, size);
        }

        @Override
        public void branch(int t, int cpu, long clock, int kind, long source, long target) {
            ciat.branch(t, cpu, clock, kind, source, target);
        }

        @Override
        public void call(RecordBatch b, int t, int cpu, long clock, int index) {
            b.callEvent(index, event);
            ciat.call(t, cpu, clock, event);
        }

        @Override
        public void control(RecordBatch b, int kind, int index) {
            switch (kind) {
                case RecordBatch.PHASE_BEGIN: ciat.phaseBegin((Phase) b.objects[index]); break;
                case RecordBatch.PHASE_END:
                    ciat.phaseEnd((Phase) b.objects[index], (PhaseTimes) b.objects[index + 1]);
                    break;
                default: ciat.end(wctx, (PhaseTimes) b.objects[index + 1]); break;
            }
        }
    }

    /** What a worker's CIAT may ask: the run's sizes and trace set, and its partition. */
    private static final class WorkerContext implements ReplayContext {
        private final int threads;
        private final int processors;
        private final TraceSet traces;
        private final int part;
        private final int parts;
        private final WorkProfile profile;

        WorkerContext(int threads, int processors, TraceSet traces, int part, int parts, WorkProfile profile) {
            this.threads = threads;
            this.processors = processors;
            this.traces = traces;
            this.part = part;
            this.parts = parts;
            this.profile = profile;
        }

        @Override
        public WorkProfile workProfile() {
            return profile;
        }

        @Override
        public int threads() {
            return threads;
        }

        @Override
        public int processors() {
            return processors;
        }

        @Override
        public TraceSet traces() {
            return traces;
        }

        @Override
        public boolean isSyncVariable(long address) {
            throw new UnsupportedOperationException("a CIAT worker gets synchronization flags with each access");
        }

        @Override
        public long clock(int thread) {
            throw new UnsupportedOperationException("a CIAT worker has no live clocks; records carry them");
        }

        @Override
        public int partition() {
            return part;
        }

        @Override
        public int partitions() {
            return parts;
        }
    }
}
