package org.dsmscope.monitor.record;

/** A recording that cannot be read: the message names the file, the byte offset and what is wrong. */
public final class RecordingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An error with a complete, user-readable message. */
    public RecordingException(String message) {
        super(message);
    }
}
