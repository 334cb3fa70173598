package org.dsmscope.dsm;

/** A DSM operation that cannot complete: a timeout, a member that left, a closed runtime. */
public final class DsmException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An error with a complete message. */
    public DsmException(String message) {
        super(message);
    }
}
