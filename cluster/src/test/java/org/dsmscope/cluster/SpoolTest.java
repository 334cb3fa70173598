package org.dsmscope.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * A reduce task's spool ({@link Shuffle.Spool}, cluster/README.md "What is shuffled"): whatever order the shuffle
 * delivers the blocks in, and whether they are held in memory, written to the spool's file or some of each, a
 * thread's stream reads back as its blocks in order of chunk and block number.
 */
class SpoolTest {
    /** A block as the map tasks key it: thread, chunk, block number within the chunk, bytes. */
    private record Block(int t, int chunk, int seq, byte[] bytes) {
        long number() {
            return Shuffle.block(chunk, seq);
        }
    }

    private static List<Block> blocks(Random r, int threads) {
        List<Block> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int chunks = 1 + r.nextInt(3);
            for (int c = 0; c < chunks; c++) {
                int n = 1 + r.nextInt(4);
                for (int s = 0; s < n; s++) {
                    byte[] b = new byte[1 + r.nextInt(700)];
                    r.nextBytes(b);
                    all.add(new Block(t, c, s, b));
                }
            }
        }
        return all;
    }

    /** Thread t's stream as the serial order gives it: its blocks by chunk, then block number. */
    private static byte[] expected(List<Block> all, int t) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        all.stream().filter(b -> b.t == t).sorted((a, b) -> Long.compare(a.number(), b.number()))
                .forEach(b -> o.writeBytes(b.bytes));
        return o.toByteArray();
    }

    private static byte[] read(ReadableByteChannel ch, int step) throws IOException {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(step);
        while (ch.read(buf) >= 0) {
            buf.flip();
            o.write(buf.array(), 0, buf.limit());
            buf.clear();
        }
        return o.toByteArray();
    }

    @Property(tries = 60)
    void eachThreadsStreamReadsBackInBlockOrder_heldInMemoryOnFileOrBoth(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll @IntRange(min = 0, max = 2) int where,
            @ForAll @IntRange(min = 1, max = 900) int step) throws IOException {
        Random r = new Random(seed);
        List<Block> all = blocks(r, threads);
        long total = all.stream().mapToLong(b -> b.bytes.length).sum();
        long budget = where == 0 ? 0 : where == 1 ? total / 2 : Long.MAX_VALUE;
        List<Block> arrival = new ArrayList<>(all);
        Collections.shuffle(arrival, r);
        Path dir = Files.createTempDirectory("spool-test");
        try (Shuffle.Spool spool = new Shuffle.Spool(dir.resolve("part-0"), threads, budget)) {
            for (Block b : arrival) {
                spool.add(b.t, b.number(), b.bytes);
            }
            assertEquals(total, spool.bytes);
            assertEquals(where == 0 ? 0 : where == 2 ? total : -1, where == 1 ? -1 : spool.inMemory());
            assertTrue(spool.inMemory() <= budget, "at most the budget held");
            for (int t = 0; t < threads; t++) {
                assertArrayEquals(expected(all, t), read(spool.channel(t), step), "thread " + t);
            }
        } finally {
            TraceInput.delete(dir);
        }
    }

    @Test
    void aMissingBlockOrASecondReadIsAnError() throws IOException {
        Path dir = Files.createTempDirectory("spool-test");
        try (Shuffle.Spool spool = new Shuffle.Spool(dir.resolve("part-0"), 2, 1 << 20)) {
            spool.add(0, Shuffle.block(0, 0), new byte[] {1});
            spool.add(0, Shuffle.block(0, 2), new byte[] {3});
            spool.add(1, Shuffle.block(0, 0), new byte[] {1});
            IllegalStateException gap = assertThrows(IllegalStateException.class, () -> spool.channel(0));
            assertTrue(gap.getMessage().contains("missing"), gap.getMessage());
            spool.channel(1);
            assertThrows(IllegalStateException.class, () -> spool.channel(1));
        } finally {
            TraceInput.delete(dir);
        }
    }

    @Test
    void theTasksAtOnceShareAnEighthOfTheHeap() {
        assertEquals(256L << 20, Shuffle.Spool.budget(4L << 30, 2));
        assertEquals(512L << 20, Shuffle.Spool.budget(4L << 30, 1));
        assertEquals(512L << 20, Shuffle.Spool.budget(4L << 30, 0));
    }
}
