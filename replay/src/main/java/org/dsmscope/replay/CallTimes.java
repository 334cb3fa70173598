package org.dsmscope.replay;

import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * The times of each thread's current call record (SPEC §4): µs from the run's first call record, unwrapped where
 * the 32-bit field wrapped, taken from the call trace when one is given (its n-th call record is the detailed
 * trace's n-th; {@link Prescan} has checked that they match, and after a mismatch it let pass, the detailed times
 * are used).
 */
final class CallTimes {
    private final TraceReader[] calls;
    private final long[] usable;
    private final long[] callNo;
    private final Times[] times;
    private final long t0;
    private final long[] start;
    private final long[] end;

    CallTimes(TraceReader[] callsOrNull, long[] usable, long t0, int n) {
        this.calls = callsOrNull;
        this.usable = usable;
        this.t0 = t0;
        callNo = new long[n];
        times = new Times[n];
        start = new long[n];
        end = new long[n];
        for (int t = 0; t < n; t++) {
            times[t] = new Times();
        }
    }

    /** Reads the times of thread t's next call record, whose detailed record is {@code r}'s current one. */
    void read(int t, TraceReader r) {
        TraceReader src = r;
        if (calls != null && calls[t] != null && callNo[t] < usable[t]) {
            TraceReader c = calls[t];
            int k;
            while ((k = c.next()) != RecordKind.EOF && k != RecordKind.CALL) {
                // only call records of a call trace are used
            }
            if (k == RecordKind.CALL) {
                src = c;
            }
        }
        callNo[t]++;
        start[t] = times[t].unwrap(src.startTime()) - t0;
        end[t] = times[t].unwrap(src.endTime()) - t0;
    }

    /** Start time of thread t's current call, µs. */
    long start(int t) {
        return start[t];
    }

    /** End time of thread t's current call, µs. */
    long end(int t) {
        return end[t];
    }
}
