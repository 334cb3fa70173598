package org.dsmscope.monitor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A process's standard output or error as the XPVM output view of seed 002 §4.6 shows it: every byte goes on to the
 * original stream unchanged, and each complete line is routed through the process's {@link Monitor} with the time
 * it was ended on that process's clock (so the viewer puts it on the aligned clock with the process's events).
 * Lines longer than {@link #MAX_LINE} characters are cut there (the rest still reaches the original stream).
 */
public final class OutputCapture extends OutputStream {
    /** Longest line routed, in bytes. */
    public static final int MAX_LINE = 4000;
    private final OutputStream original;
    private final Monitor monitor;
    private final int stream;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(128);

    private OutputCapture(OutputStream original, Monitor monitor, int stream) {
        this.original = original;
        this.monitor = monitor;
        this.stream = stream;
    }

    /** A print stream writing to {@code original} and routing its lines through {@code monitor} as {@code stream}. */
    public static PrintStream tee(PrintStream original, Monitor monitor, int stream) {
        return new PrintStream(new OutputCapture(original, monitor, stream), true, StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(int b) throws IOException {
        original.write(b);
        take(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        original.write(b, off, len);
        for (int i = off; i < off + len; i++) {
            take(b[i]);
        }
    }

    private void take(int b) {
        if (b == '\n') {
            end();
        } else if (b != '\r' && line.size() < MAX_LINE) {
            line.write(b);
        }
    }

    private void end() {
        monitor.output(stream, line.toString(StandardCharsets.UTF_8));
        line.reset();
    }

    @Override
    public synchronized void flush() throws IOException {
        original.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        if (line.size() > 0) {
            end();
        }
        flush();
    }
}
