package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OpenFiles}: every file holds exactly what was written to it, whatever the pool closed in between. */
class OpenFilesTest {
    @TempDir
    Path dir;

    /** Random writes to {@code files} files through a pool of {@code limit}, against byte arrays. */
    @Property(tries = 40)
    void interleavedWrites_giveEachFileItsBytes_withAtMostLimitOpen(@ForAll @IntRange(min = 1, max = 12) int files,
            @ForAll @IntRange(min = 1, max = 5) int limit, @ForAll long seed) throws IOException {
        Path d = Files.createTempDirectory("openfiles");
        try {
            Random rnd = new Random(seed);
            OpenFiles pool = new OpenFiles(limit);
            List<OpenFiles.File> f = new ArrayList<>();
            List<ByteArrayOutputStream> ref = new ArrayList<>();
            for (int i = 0; i < files; i++) {
                f.add(pool.create(d.resolve("f" + i)));
                ref.add(new ByteArrayOutputStream());
            }
            for (int op = 0; op < 200; op++) {
                int i = rnd.nextInt(files);
                byte[] b = new byte[1 + rnd.nextInt(300)];
                rnd.nextBytes(b);
                ByteBuffer buf = rnd.nextBoolean() ? ByteBuffer.allocateDirect(b.length) : ByteBuffer.allocate(b.length);
                buf.put(b).flip();
                assertEquals(b.length, f.get(i).write(buf));
                ref.get(i).write(b);
                assertTrue(pool.openCount() <= limit, "open " + pool.openCount() + " > " + limit);
            }
            for (OpenFiles.File x : f) {
                x.close();
            }
            assertEquals(0, pool.openCount());
            for (int i = 0; i < files; i++) {
                assertArrayEquals(ref.get(i).toByteArray(), Files.readAllBytes(d.resolve("f" + i)), "file " + i);
            }
        } finally {
            try (var s = Files.list(d)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    Files.delete(p);
                }
            }
            Files.delete(d);
        }
    }

    /**
     * Eight threads each writing its own file through a pool of two, in lockstep rounds (so that files are closed
     * and reopened while other threads write): no lost or reordered bytes, no deadlock.
     */
    @Test
    void threadsWritingTheirOwnFiles_throughASmallPool() throws Exception {
        OpenFiles pool = new OpenFiles(2);
        int n = 8;
        OpenFiles.File[] f = new OpenFiles.File[n];
        Thread[] th = new Thread[n];
        Throwable[] failed = new Throwable[1];
        java.util.concurrent.CyclicBarrier round = new java.util.concurrent.CyclicBarrier(n);
        for (int t = 0; t < n; t++) {
            f[t] = pool.create(dir.resolve("t" + t));
            int me = t;
            th[t] = new Thread(() -> {
                try {
                    ByteBuffer b = ByteBuffer.allocate(4);
                    for (int i = 0; i < 2000; i++) {
                        if (i % 20 == 0) {
                            round.await(30, java.util.concurrent.TimeUnit.SECONDS);
                        }
                        b.clear();
                        b.putInt(me * 1_000_000 + i).flip();
                        f[me].write(b);
                    }
                    f[me].close();
                } catch (Throwable e) {
                    failed[0] = e;
                }
            });
            th[t].start();
        }
        for (Thread x : th) {
            x.join(60_000);
            assertTrue(!x.isAlive(), "a writer is stuck");
        }
        assertEquals(null, failed[0]);
        for (int t = 0; t < n; t++) {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("t" + t)));
            assertEquals(8000, b.remaining());
            for (int i = 0; i < 2000; i++) {
                assertEquals(t * 1_000_000 + i, b.getInt());
            }
        }
        assertTrue(pool.opens() >= n, "opens " + pool.opens());
    }

    /** The least recently written idle file is the one closed; a closed file reopens on its next write. */
    @Test
    void leastRecentlyWrittenFileIsClosed_andReopensWhenWrittenAgain() throws IOException {
        OpenFiles pool = new OpenFiles(2);
        OpenFiles.File[] f = new OpenFiles.File[3];
        for (int i = 0; i < 3; i++) {
            f[i] = pool.create(dir.resolve("lru" + i));
        }
        f[0].write(ByteBuffer.wrap(new byte[] {0}));
        f[1].write(ByteBuffer.wrap(new byte[] {1}));
        f[0].write(ByteBuffer.wrap(new byte[] {0})); // f1 is now the least recently written
        assertEquals(2, pool.opens());
        f[2].write(ByteBuffer.wrap(new byte[] {2})); // closes f1
        assertEquals(3, pool.opens());
        assertEquals(2, pool.openCount());
        f[0].write(ByteBuffer.wrap(new byte[] {0})); // still open
        assertEquals(3, pool.opens());
        f[1].write(new byte[] {1, 1}, 0, 2); // reopened, closes f2
        assertEquals(4, pool.opens());
        assertEquals(2, pool.openCount());
        for (OpenFiles.File x : f) {
            x.close();
        }
        assertArrayEquals(new byte[] {0, 0, 0}, Files.readAllBytes(dir.resolve("lru0")));
        assertArrayEquals(new byte[] {1, 1, 1}, Files.readAllBytes(dir.resolve("lru1")));
        assertArrayEquals(new byte[] {2}, Files.readAllBytes(dir.resolve("lru2")));
    }

    @Test
    void createTruncates_andAClosedFileRefusesWrites() throws IOException {
        Path p = dir.resolve("x");
        Files.write(p, new byte[] {1, 2, 3});
        OpenFiles pool = new OpenFiles(1);
        OpenFiles.File f = pool.create(p);
        assertEquals(0, Files.size(p));
        f.close();
        assertThrows(ClosedChannelException.class, () -> f.write(ByteBuffer.allocate(1)));
        assertThrows(IOException.class, () -> pool.create(dir.resolve("missing/x")));
    }
}
