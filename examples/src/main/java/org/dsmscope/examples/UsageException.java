package org.dsmscope.examples;

/** A user's mistake in an example's arguments (bad thread count or size): reported in one line, exit status 2. */
public final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** An argument error described by {@code message}. */
    public UsageException(String message) {
        super(message);
    }

    /** Throws a UsageException with {@code message} unless {@code condition} holds. */
    public static void require(boolean condition, String message) {
        if (!condition) {
            throw new UsageException(message);
        }
    }
}
