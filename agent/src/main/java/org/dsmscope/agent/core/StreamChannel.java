package org.dsmscope.agent.core;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A channel over an output stream that, unlike the JDK's file channels, is not interruptible: the traced program's
 * threads write their own trace buffers, and a program that interrupts its threads (thread pools do) must not close
 * a trace file under them.
 */
final class StreamChannel implements WritableByteChannel {
    private final OutputStream out;
    private final byte[] chunk = new byte[1 << 16];
    private boolean open = true;

    StreamChannel(OutputStream out) {
        this.out = out;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int n = 0;
        while (src.hasRemaining()) {
            int k = Math.min(chunk.length, src.remaining());
            src.get(chunk, 0, k);
            out.write(chunk, 0, k);
            n += k;
        }
        return n;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        if (open) {
            open = false;
            out.close();
        }
    }
}
