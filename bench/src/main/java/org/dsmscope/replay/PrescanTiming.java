package org.dsmscope.replay;

import java.util.Locale;
import org.dsmscope.trace.TraceSet;

/**
 * The prescan alone (replay/README.md "How a replay runs"), on one thread and on N, with the work profile a
 * partitioned run counts: wall milliseconds of each iteration after four of warm-up, modes alternating. In the
 * replay's package (in the bench module) because the prescan is not public. Usage: {@code PrescanTiming
 * TRACE_PREFIX ITERATIONS THREADS}.
 */
public final class PrescanTiming {
    private PrescanTiming() {
    }

    /** Prints one line per mode. */
    public static void main(String[] a) {
        TraceSet set = TraceSet.ofPrefix(a[0]);
        int iterations = Integer.parseInt(a[1]);
        int threads = Integer.parseInt(a[2]);
        StringBuilder[] out = {new StringBuilder(), new StringBuilder()};
        for (int it = 0; it < iterations + 4; it++) {
            for (int mode = 0; mode < 2; mode++) {
                long t0 = System.nanoTime();
                Prescan p = new Prescan(set.size(), new ReplayOptions(), new Problems());
                p.countWork();
                p.run(set, null, false, mode == 0 ? 1 : threads);
                long t = System.nanoTime() - t0;
                if (it >= 4) {
                    out[mode].append(String.format(Locale.ROOT, " %.1f", t / 1e6));
                }
            }
        }
        System.out.println(a[0] + " prescan ms, 1 thread:" + out[0]);
        System.out.println(a[0] + " prescan ms, " + threads + " threads:" + out[1]);
    }
}
