package org.dsmscope.examples;

/**
 * The outcome of one example run: a check value that is the same for every thread count, a deterministic
 * detail (e.g. iterations, error bound) and whether the self-check passed.
 *
 * @param check the check value, one token without spaces
 * @param detail further deterministic facts, may be empty
 * @param ok whether the self-check passed
 */
public record Result(String check, String detail, boolean ok) {

    /**
     * A result whose self-check found {@code problem} (null when it passed); the problem is appended to the detail.
     */
    public static Result checked(String check, String detail, String problem) {
        if (problem == null) {
            return new Result(check, detail, true);
        }
        return new Result(check, (detail.isEmpty() ? "" : detail + " ") + "error: " + problem, false);
    }

    /** {@code v} in scientific notation with 4 significant digits, the same in every locale (e.g. 3.927e-10). */
    public static String sci(double v) {
        return String.format(java.util.Locale.ROOT, "%.3e", v);
    }

    /** The one line a program prints: {@code NAME threads=P size=N check=V [detail] PASS|FAIL}. */
    public String line(String name, int threads, int size) {
        StringBuilder sb = new StringBuilder(name).append(" threads=").append(threads).append(" size=").append(size)
                .append(" check=").append(check);
        if (!detail.isEmpty()) {
            sb.append(' ').append(detail);
        }
        return sb.append(ok ? " PASS" : " FAIL").toString();
    }
}
