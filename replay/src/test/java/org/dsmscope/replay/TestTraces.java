package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;

/** Builds small trace sets inline in tests: one {@link T} per thread, written as NAME.p.t files. */
final class TestTraces {
    /** Writes one thread's records. */
    interface T {
        void write(W w) throws IOException;
    }

    /** A thin writer with call helpers; call times advance by 1 µs per call. */
    static final class W {
        final TraceWriter w;
        long time;

        W(TraceWriter w) {
            this.w = w;
        }

        W loads(int n, long addr) {
            for (int i = 0; i < n; i++) {
                w.memory(MemType.LOAD, 4, MemType.FIXED, addr + 4L * i);
            }
            return this;
        }

        W stores(int n, long addr) {
            for (int i = 0; i < n; i++) {
                w.memory(MemType.STORE, 4, MemType.FIXED, addr + 4L * i);
            }
            return this;
        }

        W call(int type, long a1, long a2, long a3) {
            w.call(type, time, time + 1, a1, a2, a3, 0);
            time += 2;
            return this;
        }

        W spawn(int count) {
            return call(CallType.SPAWN, 1, count, 0);
        }

        W join() {
            return call(CallType.JOIN, 0, 0, 0);
        }

        W barrier(long addr, int parties) {
            return call(CallType.BARRIER, addr, parties, 0);
        }

        W lock(long addr) {
            return call(CallType.BEGIN_CRITICAL, addr, 0, 0);
        }

        /** A lock as the agent records it: argument 3 the acquisition's sequence number on the lock (0: none). */
        W lock(long addr, long seq) {
            return call(CallType.BEGIN_CRITICAL, addr, 0, seq);
        }

        /** A read lock with the acquisition's sequence number on the lock. */
        W readLock(long addr, long seq) {
            return call(CallType.BEGIN_CRITICAL, addr, 1, seq);
        }

        W unlock(long addr) {
            return call(CallType.END_CRITICAL, addr, 0, 0);
        }

        /** A read lock (critical section in shared mode: argument 2 = 1). */
        W readLock(long addr) {
            return call(CallType.BEGIN_CRITICAL, addr, 1, 0);
        }

        W readUnlock(long addr) {
            return call(CallType.END_CRITICAL, addr, 1, 0);
        }
    }

    static TraceSet write(Path dir, String name, T... threads) {
        return write(dir, name, TraceWriter.Options.classic(), threads);
    }

    /** The same, written with {@code options} (e.g. with an end record). */
    static TraceSet write(Path dir, String name, TraceWriter.Options options, T... threads) {
        List<Path> files = new ArrayList<>();
        int p = threads.length;
        for (int t = 0; t < p; t++) {
            Path f = dir.resolve(TraceSet.fileName(name, p, t));
            try (TraceWriter tw = TraceWriter.create(f, options)) {
                threads[t].write(new W(tw));
                tw.finish(); // the end record, where the options promise one
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            files.add(f);
        }
        return TraceSet.of(dir.resolve(name + "." + p).toString(), files);
    }

    /** Options for traces without spawn and join records: every thread runs from the start ({@code -p}). */
    static ReplayOptions parallel() {
        ReplayOptions o = new ReplayOptions();
        o.parallelStart = true;
        return o;
    }

    static Recorder replay(TraceSet set, ReplayOptions o) {
        Recorder rec = new Recorder();
        new Replay(set, null, o).add(rec).run();
        return rec;
    }

    static Recorder replay(TraceSet set) {
        return replay(set, new ReplayOptions());
    }
}
