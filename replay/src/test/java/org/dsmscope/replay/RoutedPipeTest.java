package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** {@link RoutedPipe} on one thread: what the router writes, the partition reads, whatever chunks are reused. */
class RoutedPipeTest {

    /**
     * Random writes (empty to 40 KB, the router's writer's buffer reused between them as the router reuses it) and
     * reads (1 byte to 64 KB) interleaved: the reader gets exactly the bytes written, in order, then the end; the
     * pipe is full exactly while it holds more than its capacity.
     */
    @Property(tries = 60)
    void writesAndReads_interleaved_readTheBytesWrittenInOrder(@ForAll long seed) throws IOException {
        Random r = new Random(seed);
        long cap = r.nextInt(3) == 0 ? 0 : r.nextInt(100_000);
        RoutedPipe pipe = new RoutedPipe(cap, new Object());
        WritableByteChannel sink = pipe.sink();
        ReadableByteChannel source = pipe.source();
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        ByteBuffer src = ByteBuffer.allocate(40_000);
        long held = 0;
        for (int step = 0, steps = r.nextInt(300); step < steps; step++) {
            if (r.nextBoolean()) {
                int n = r.nextInt(4) == 0 ? r.nextInt(40_001) : r.nextInt(2_000);
                src.clear();
                for (int i = 0; i < n; i++) {
                    src.put((byte) r.nextInt());
                }
                src.flip();
                written.write(src.array(), 0, n);
                assertEquals(n, sink.write(src));
                held += n;
            } else if (held > 0) {
                held -= readSome(source, read, 1 + r.nextInt(r.nextBoolean() ? 100 : 65_536));
            }
            assertEquals(held > cap, pipe.full());
        }
        sink.close();
        while (readSome(source, read, 1 + r.nextInt(65_536)) >= 0) {
            // to the end
        }
        assertArrayEquals(written.toByteArray(), read.toByteArray());
        assertFalse(pipe.full());
        assertTrue(source.read(ByteBuffer.allocate(1)) < 0);
    }

    /** Reads up to {@code max} bytes into {@code to}; returns how many, or -1 at the end. */
    private static int readSome(ReadableByteChannel source, ByteArrayOutputStream to, int max) throws IOException {
        ByteBuffer dst = ByteBuffer.allocate(max);
        int n = source.read(dst);
        if (n > 0) {
            to.write(dst.array(), 0, n);
        }
        return n;
    }
}
