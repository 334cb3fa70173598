package org.dsmscope.trace;

/**
 * Bad trace content: names the file, the byte offset of the offending record (in the uncompressed record
 * stream) and what is wrong. The message reads {@code FILE: byte offset N: what}.
 */
public final class TraceFormatException extends BadInputException {
    private static final long serialVersionUID = 1L;
    private final String file;
    private final long offset;
    private final String what;

    /** An error at byte {@code offset} of {@code file}. */
    public TraceFormatException(String file, long offset, String what) {
        super(file + ": byte offset " + offset + ": " + what);
        this.file = file;
        this.offset = offset;
        this.what = what;
    }

    /** The file's name as given by the user. */
    public String file() {
        return file;
    }

    /** Byte offset of the offending record in the uncompressed record stream. */
    public long offset() {
        return offset;
    }

    /** What is wrong, without file and offset. */
    public String what() {
        return what;
    }
}
