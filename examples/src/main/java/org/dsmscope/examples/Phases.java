package org.dsmscope.examples;

import org.dsmscope.api.Smait;

/**
 * The user-defined phases every example marks with {@code Smait.marker(0, n)} (seed 000 &sect;3, Appendix A
 * marker record): 1 initialization, 2 computation, 3 verification &mdash; the serial initialization, parallel and
 * wrap-up phases of the applications in seed 001 &sect;4. The main thread places each marker where no
 * other thread runs, so a replay sees the same phase boundaries for every thread count.
 */
public final class Phases {
    /** Marker number of the initialization phase (inputs built from the seeded generator). */
    public static final int INIT = 1;
    /** Marker number of the computation phase (the parallel kernel the example exists for). */
    public static final int COMPUTE = 2;
    /** Marker number of the verification phase (the self-check). */
    public static final int VERIFY = 3;

    private Phases() {
    }

    /** Marks the start of phase {@code num} with marker command 0 (no effect on tracing). */
    public static void begin(int num) {
        Smait.marker(Smait.NO_EFFECT, num);
    }
}
