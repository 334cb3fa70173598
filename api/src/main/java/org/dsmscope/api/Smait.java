package org.dsmscope.api;

/**
 * What a traced program may call: the marker of seed 000 Appendix A ({@code smait_marker(cmd, num)}).
 *
 * <p>Uninstrumented, {@link #marker(int, int)} does nothing. Under the dsmscope agent the call is
 * recorded as a marker call record (type 10, argument 1 = cmd, argument 2 = num) and commands 1&ndash;4
 * stop or resume detailed tracing. This class has no dependencies so any program can link against it.
 */
public final class Smait {
    /** Command 0: no effect on tracing; delimits a user-defined phase. */
    public static final int NO_EFFECT = 0;
    /** Command 1: stop detailed tracing of the calling thread. */
    public static final int STOP_THREAD = 1;
    /** Command 2: resume detailed tracing of the calling thread. */
    public static final int RESUME_THREAD = 2;
    /** Command 3: stop detailed tracing of all threads. */
    public static final int STOP_ALL = 3;
    /** Command 4: resume detailed tracing of all threads. */
    public static final int RESUME_ALL = 4;

    private Smait() {
    }

    /**
     * Records a marker. The agent intercepts this call; without the agent it validates its argument only.
     *
     * @param cmd one of the five commands (0&ndash;4)
     * @param num a user-chosen number that distinguishes markers
     */
    public static void marker(int cmd, int num) {
        if (cmd < NO_EFFECT || cmd > RESUME_ALL) {
            throw new IllegalArgumentException("marker command must be 0..4, was " + cmd);
        }
    }
}
