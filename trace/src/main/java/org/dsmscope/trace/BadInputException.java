package org.dsmscope.trace;

/**
 * A user's mistake: bad input or a bad option. The command line prints {@link #getMessage()} as one line and
 * exits with status 2, without a stack trace. Every module's input errors extend or wrap this type.
 */
public class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An error with a complete, user-readable message. */
    public BadInputException(String message) {
        super(message);
    }

    /** An error with a complete, user-readable message and the low-level cause. */
    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
