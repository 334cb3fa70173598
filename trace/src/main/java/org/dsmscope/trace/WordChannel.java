package org.dsmscope.trace;

import java.io.IOException;

/**
 * A record stream handed over in process as simple-record words, first field in bits 63..32 (the form
 * {@link TraceReader#nextRun} returns): no bytes, no byte order. A routed partitioned replay's pipes are such
 * channels ({@link RoutedWords}); {@link TraceReader#TraceReader(WordChannel, String, TraceReader.Options)} reads
 * one.
 */
public interface WordChannel {
    /**
     * Copies up to {@code max} (at least 1) words into {@code dst} from {@code off}, waiting until at least one is
     * there; returns how many, or -1 at the end of the stream.
     */
    int read(long[] dst, int off, int max) throws IOException;

    /** The reader is done (the default does nothing). */
    default void close() throws IOException {
    }
}
