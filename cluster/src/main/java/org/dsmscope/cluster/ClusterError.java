package org.dsmscope.cluster;

/** A user's mistake found by a cluster command (bad option, unreadable trace set): one line, exit status 2. */
final class ClusterError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An error with a complete, user-readable message. */
    ClusterError(String message) {
        super(message);
    }
}
