package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.dsmscope.trace.WordChannel;
import org.junit.jupiter.api.Test;

/**
 * {@link RoutedPipe} on one thread: what the router hands over, the partition reads, whatever blocks are reused; and
 * the low-water mark of {@link RoutedPipe.Hold}.
 */
class RoutedPipeTest {

    /**
     * Random hand-offs (empty to 5,000 words, the router's array given back to it as the router reuses it) and reads
     * (1 word to 8,192) interleaved: the reader gets exactly the words handed over, in order, then the end; the pipe
     * holds 8 bytes a word unread and its drain counts every word read.
     */
    @Property(tries = 60)
    void handOffsAndReads_interleaved_readTheWordsInOrder(@ForAll long seed) throws IOException {
        Random r = new Random(seed);
        RoutedPipe pipe = new RoutedPipe(new Object());
        WordChannel source = pipe.source();
        long[] written = new long[2_000_000];
        long[] read = new long[2_000_000];
        int nw = 0;
        int nr = 0;
        long[] buf = new long[5_000];
        for (int step = 0, steps = r.nextInt(300); step < steps; step++) {
            if (r.nextBoolean()) {
                int n = r.nextInt(4) == 0 ? r.nextInt(buf.length + 1) : r.nextInt(200);
                for (int i = 0; i < n; i++) {
                    buf[i] = r.nextLong();
                }
                System.arraycopy(buf, 0, written, nw, n);
                nw += n;
                long[] next = pipe.block(buf, n);
                assertTrue(next.length >= buf.length || n == 0);
                buf = next;
            } else if (nw > nr) {
                int n = source.read(read, nr, 1 + r.nextInt(r.nextBoolean() ? 100 : 8_192));
                assertTrue(n > 0);
                nr += n;
            }
            assertEquals(8L * (nw - nr), pipe.held());
            assertEquals(8L * nr, pipe.drain().read());
        }
        pipe.end();
        for (int n; (n = source.read(read, nr, 1 + r.nextInt(8_192))) >= 0;) {
            nr += n;
        }
        assertEquals(nw, nr);
        assertArrayEquals(java.util.Arrays.copyOf(written, nw), java.util.Arrays.copyOf(read, nr));
        assertEquals(0, pipe.held());
    }

    /**
     * A router that stops at more than the capacity waits until the partition has read down to half of it: reads
     * short of that leave it waiting and wake nobody, the read that gets there wakes it once.
     */
    @Test
    void hold_waitsForTheLowWaterMark_andIsWokenOnceThere() throws Exception {
        Object room = new Object();
        RoutedPipe pipe = new RoutedPipe(room);
        WordChannel source = pipe.source();
        long cap = 8 * 100;
        pipe.block(new long[150], 150); // 1,200 bytes: over the capacity
        RoutedPipe.Hold hold = new RoutedPipe.Hold();
        hold.start(pipe.drain(), pipe.drain().read(), pipe.held(), RoutedPipe.Hold.low(cap));
        assertTrue(hold.waiting());
        AtomicBoolean woken = new AtomicBoolean();
        Thread router = new Thread(() -> {
            synchronized (room) {
                while (hold.waiting()) {
                    try {
                        room.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                woken.set(true);
            }
        });
        router.start();
        long[] dst = new long[200];
        assertEquals(60, source.read(dst, 0, 60)); // 90 words = 720 bytes left: under the capacity, over the mark
        router.join(200);
        assertFalse(woken.get());
        assertTrue(hold.waiting());
        assertEquals(40, source.read(dst, 0, 40)); // 50 words = 400 bytes: the mark
        router.join(10_000);
        assertTrue(woken.get());
        assertFalse(hold.waiting());
    }
}
