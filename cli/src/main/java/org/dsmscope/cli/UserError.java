package org.dsmscope.cli;

/** A user's mistake found by the command line itself; printed as one line, exit status 2. */
public final class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An error with a complete, user-readable message. */
    public UserError(String message) {
        super(message);
    }
}
