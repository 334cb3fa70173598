package org.dsmscope.report;

/** A result file the report cannot use (unknown format or version, truncated, mixed programs): one line naming it. */
public final class BadResultException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A message that names the file and what is wrong with it. */
    public BadResultException(String message) {
        super(message);
    }
}
