package org.dsmscope.viewer.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.SpinDetector;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.OutputFile;

/**
 * A replayed trace set as Chrome trace-event JSON (SPEC §9: "traces also export to the Chrome trace-event JSON format
 * that Perfetto opens"), format {@value #FORMAT}, written as the replay runs: one track per thread (or process, with
 * {@code -i}, and then one per processor too: {@code running} / {@code idle}, {@link Analysis#processorIdle}) holding
 * its states as complete slices, {@code busy}, {@code spin} and {@code lock spin} (spin-waits, {@link SpinDetector};
 * with {@code spinAsWait} named {@code imbalance} and {@code contention} instead) and the replay's waits ({@code
 * idle}, {@code imbalance}, {@code contention}, {@code io}: {@link Analysis#waited}), which together cover the run
 * from clock 0 to the run's end; one track of phases; and a flow arrow for every lock hand-off (a critical section entered after a wait, from the
 * release of the same lock that let it in). Times are the replay's pseudo clocks converted at {@code
 * clocksPerMicrosecond} (the seed's IPC × MHz). Slices of one track never overlap; they are written in clock order,
 * except the slice of a loop whose spin is decided only after the thread's next wait (SpinDetector's {@code
 * PENDING}), written when decided (Perfetto sorts by time).
 */
public final class ChromeTrace implements Analysis, SpinDetector.Sink {
    /** Format name and version, the first member of the JSON object ({@code otherData.format}). */
    public static final String FORMAT = "dsmscope-chrome-trace 1";
    private static final String[] WAITS = {"idle", "imbalance", "contention", "io"};

    private final Path path;
    private final double clocksPerMicrosecond;
    private final long maxFlows;
    private JsonGenerator g;
    private ReplayContext ctx;
    private final boolean spinAsWait;
    private long[] cursor;
    /** Per thread: one clock after its last instruction (a call record takes no clock). */
    private long[] lastEnd;
    private SpinDetector spin;
    /** Per thread: its loops not yet written (from, to, SpinDetector state), in clock order. */
    private long[][] loops;
    private int[] loopCount;
    private int phasesTrack;
    /** With {@code -i}: per processor, the end of its last slice (its track is {@code phasesTrack + 1 + cpu}). */
    private long[] cpuCursor;
    private final Map<Long, long[]> lastRelease = new HashMap<>();
    private long flows;
    private long flowsLeftOut;
    private boolean closed;

    /**
     * An export to {@code path}; {@code clocksPerMicrosecond} converts clocks to the format's microseconds; at most
     * {@code maxFlows} lock hand-off arrows (the rest are counted in {@code otherData}).
     */
    public ChromeTrace(Path path, double clocksPerMicrosecond, long maxFlows) {
        this(path, clocksPerMicrosecond, maxFlows, false);
    }

    /** As above; {@code spinAsWait}: spins are named as the waits they are booked as ({@code --spin-as-wait}). */
    public ChromeTrace(Path path, double clocksPerMicrosecond, long maxFlows, boolean spinAsWait) {
        this.spinAsWait = spinAsWait;
        if (!(clocksPerMicrosecond > 0)) {
            throw new IllegalArgumentException("clocks per microsecond must be positive");
        }
        this.path = path;
        this.clocksPerMicrosecond = clocksPerMicrosecond;
        this.maxFlows = maxFlows;
    }

    /** Lock hand-off arrows written. */
    public long flows() {
        return flows;
    }

    @Override
    public void begin(ReplayContext c) {
        ctx = c;
        int n = c.threads();
        cursor = new long[n];
        lastEnd = new long[n];
        spin = new SpinDetector(n, this);
        loops = new long[n][];
        loopCount = new int[n];
        phasesTrack = n;
        try {
            g = new JsonFactory().createGenerator(OutputFile.partial(path).toFile(), JsonEncoding.UTF8);
            g.writeStartObject();
            g.writeObjectFieldStart("otherData");
            g.writeStringField("format", FORMAT);
            g.writeStringField("traces", c.traces() == null ? "" : c.traces().base());
            g.writeNumberField("clocksPerMicrosecond", clocksPerMicrosecond);
            g.writeEndObject();
            g.writeStringField("displayTimeUnit", "ns");
            g.writeArrayFieldStart("traceEvents");
            meta("process_name", 0, "name", c.traces() == null ? "replay" : c.traces().base());
            String kind = c.interleaved() ? "process " : "thread ";
            for (int t = 0; t < n; t++) {
                meta("thread_name", t, "name", kind + t);
                meta("thread_sort_index", t, "sort_index", t);
            }
            meta("thread_name", phasesTrack, "name", "phases");
            meta("thread_sort_index", phasesTrack, "sort_index", -1);
            if (c.interleaved()) {
                cpuCursor = new long[c.processors()];
                for (int cpu = 0; cpu < c.processors(); cpu++) {
                    meta("thread_name", phasesTrack + 1 + cpu, "name", "processor " + cpu);
                    meta("thread_sort_index", phasesTrack + 1 + cpu, "sort_index", n + cpu);
                }
            }
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private UncheckedIOException failed(IOException e) {
        abandon();
        return new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
    }

    private void meta(String name, int tid, String arg, Object value) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("ph", "M");
        g.writeNumberField("pid", 1);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        if (value instanceof Integer) {
            g.writeNumberField(arg, (Integer) value);
        } else {
            g.writeStringField(arg, value.toString());
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private double us(long clock) {
        return clock / clocksPerMicrosecond;
    }

    private void slice(int tid, String name, String cat, long from, long to) {
        try {
            g.writeStartObject();
            g.writeStringField("name", name);
            g.writeStringField("cat", cat);
            g.writeStringField("ph", "X");
            g.writeNumberField("ts", us(from));
            g.writeNumberField("dur", us(to) - us(from));
            g.writeNumberField("pid", 1);
            g.writeNumberField("tid", tid);
            g.writeObjectFieldStart("args");
            g.writeNumberField("fromClock", from);
            g.writeNumberField("toClock", to);
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private void seen(int t, long end) {
        if (end > lastEnd[t]) {
            lastEnd[t] = end;
        }
    }

    @Override
    public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
        seen(thread, clock + 1);
        spin.access(thread, clock, size, store, address);
    }

    @Override
    public void fetch(int thread, int cpu, long clock, long address, int size) {
        seen(thread, clock + 1);
    }

    @Override
    public void fetchRun(int thread, int cpu, long clock, long address, int count) {
        seen(thread, clock + count);
    }

    @Override
    public void loop(int t, long from, long to, int state) {
        long[] q = loops[t];
        int n = loopCount[t];
        if (state != SpinDetector.PENDING) {
            for (int i = n - 1; i >= 0; i--) {
                if (q[3 * i] == from && q[3 * i + 2] == SpinDetector.PENDING) {
                    q[3 * i + 2] = state;
                    return;
                }
            }
            if (from < cursor[t]) {
                // its thread's track is written past it: fill the hole left for it
                loopSlice(t, from, to, state);
                return;
            }
        }
        if (q == null || 3 * n + 3 > q.length) {
            q = Arrays.copyOf(q == null ? new long[0] : q, Math.max(12, 6 * (n + 1)));
            loops[t] = q;
        }
        q[3 * n] = from;
        q[3 * n + 1] = to;
        q[3 * n + 2] = state;
        loopCount[t] = n + 1;
    }

    private void loopSlice(int t, long from, long to, int state) {
        if (state == SpinDetector.SPIN) {
            slice(t, spinAsWait ? "imbalance" : "spin", spinAsWait ? "wait" : "spin", from, to);
        } else if (state == SpinDetector.LOCK_SPIN) {
            slice(t, spinAsWait ? "contention" : "lock spin", spinAsWait ? "wait" : "spin", from, to);
        } else {
            slice(t, "busy", "run", from, to);
        }
    }

    /** Writes thread {@code t}'s track up to {@code clock}: busy, its loops, and holes for undecided ones. */
    private void advance(int t, long clock) {
        long[] q = loops[t];
        for (int i = 0; i < loopCount[t]; i++) {
            long from = q[3 * i];
            if (from > cursor[t]) {
                slice(t, "busy", "run", cursor[t], from);
            }
            if (q[3 * i + 2] != SpinDetector.PENDING) {
                loopSlice(t, from, q[3 * i + 1], (int) q[3 * i + 2]);
            }
            cursor[t] = q[3 * i + 1];
        }
        loopCount[t] = 0;
        if (clock > cursor[t]) {
            slice(t, "busy", "run", cursor[t], clock);
            cursor[t] = clock;
        }
    }

    @Override
    public void waited(int thread, int cpu, long from, long to, int reason) {
        spin.waited(thread);
        advance(thread, from);
        long start = Math.max(from, cursor[thread]);
        if (to > start) {
            slice(thread, WAITS[reason], "wait", start, to);
            cursor[thread] = to;
        }
    }

    @Override
    public void processorIdle(int cpu, long from, long to) {
        if (cpuCursor == null) {
            return;
        }
        int tid = phasesTrack + 1 + cpu;
        if (from > cpuCursor[cpu]) {
            slice(tid, "running", "run", cpuCursor[cpu], from);
        }
        slice(tid, "idle", "wait", Math.max(from, cpuCursor[cpu]), to);
        cpuCursor[cpu] = Math.max(cpuCursor[cpu], to);
    }

    @Override
    public void call(int thread, int cpu, long clock, CallEvent call) {
        spin.call(thread);
        if (call.type == CallType.END_CRITICAL) {
            long[] r = lastRelease.computeIfAbsent(call.arg1, k -> new long[2]);
            r[0] = thread;
            r[1] = clock;
        } else if (call.type == CallType.BEGIN_CRITICAL && call.waitClocks > 0) {
            long[] r = lastRelease.get(call.arg1);
            if (r != null && r[0] != thread && r[1] <= clock) {
                flow((int) r[0], r[1], thread, clock, call.arg1);
            }
        }
    }

    private void flow(int from, long fromClock, int to, long toClock, long lock) {
        if (flows >= maxFlows) {
            flowsLeftOut++;
            return;
        }
        long id = ++flows;
        String name = "lock 0x" + Long.toHexString(lock);
        try {
            for (int k = 0; k < 2; k++) {
                g.writeStartObject();
                g.writeStringField("name", name);
                g.writeStringField("cat", "lock");
                g.writeStringField("ph", k == 0 ? "s" : "f");
                if (k == 1) {
                    g.writeStringField("bp", "e");
                }
                g.writeNumberField("id", id);
                g.writeNumberField("ts", us(k == 0 ? fromClock : toClock));
                g.writeNumberField("pid", 1);
                g.writeNumberField("tid", k == 0 ? from : to);
                g.writeEndObject();
            }
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void phaseEnd(Phase phase, PhaseTimes times) {
        spin.phaseEnd();
        long from = Math.max(0, phase.startClock());
        if (phase.endClock() > from) {
            slice(phasesTrack, "phase " + phase.id() + " " + phase.kind().label(), "phase", from, phase.endClock());
        }
    }

    @Override
    public void end(ReplayContext c, PhaseTimes total) {
        spin.end();
        for (int t = 0; t < cursor.length; t++) {
            advance(t, Math.max(lastEnd[t], c.clock(t)));
        }
        try {
            g.writeEndArray();
            g.writeObjectFieldStart("dsmscope");
            g.writeNumberField("lockHandOffs", flows);
            g.writeNumberField("lockHandOffsLeftOut", flowsLeftOut);
            g.writeEndObject();
            g.writeEndObject();
            g.close();
            closed = true;
        } catch (IOException e) {
            throw failed(e);
        }
        OutputFile.commit(OutputFile.partial(path), path);
    }

    /** Abandons the export of a replay that failed: nothing is left under its name. */
    public void abandon() {
        if (!closed && g != null) {
            closed = true;
            try {
                g.close();
            } catch (IOException e) {
                // the failure that made the export abandoned is the one to report
            }
        }
        OutputFile.discard(OutputFile.partial(path));
    }
}
