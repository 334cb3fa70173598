package org.dsmscope.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.monitor.record.Recorder;
import org.dsmscope.monitor.record.RecordingException;
import org.dsmscope.monitor.record.RecordingReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecorderTest {
    @TempDir
    Path dir;

    static EventBuffer sample(int n, long seed) {
        java.util.Random r = new java.util.Random(seed);
        EventBuffer b = new EventBuffer(n);
        long t = 1_700_000_000_000_000_000L;
        EventType[] types = EventType.values();
        for (int i = 0; i < n; i++) {
            t += r.nextInt(100_000) - 1000;
            b.add(t, r.nextInt(8), types[r.nextInt(types.length)].code, r.nextInt(9) - 1, r.nextLong(),
                    r.nextInt(1000), -r.nextInt(5), r.nextInt(), r.nextBoolean() ? 0 : Long.MIN_VALUE);
        }
        return b;
    }

    static void assertSame(EventBuffer want, EventBuffer got) {
        assertEquals(want.size(), got.size());
        for (int i = 0; i < want.size(); i++) {
            assertEquals(want.describe(i), got.describe(i));
            assertEquals(want.e[i], got.e[i]);
        }
    }

    @Property(tries = 30)
    void everyEventReadsBackExactly(@ForAll @IntRange(min = 0, max = 40_000) int n, @ForAll long seed)
            throws IOException {
        Path f = Files.createTempFile("rec", ".dsmrec");
        EventBuffer want = sample(n, seed);
        try (Recorder r = new Recorder(f)) {
            r.process(0, "m0");
            r.accept(want);
        }
        assertSame(want, RecordingReader.readAll(f));
        Files.delete(f);
    }

    @Test
    void hostsAndOutputLinesReadBack_besideTheEvents() throws IOException {
        Path f = dir.resolve("h.dsmrec");
        HostInfo h = new HostInfo("node7", "aarch64", "Linux 6.1", 64, "OpenJDK 64-Bit Server VM 17.0.9");
        EventBuffer want = sample(100, 3);
        try (Recorder r = new Recorder(f)) {
            r.process(1, "m1");
            r.host(1, h);
            r.output(1, 1_700_000_000_123_456_789L, EventSink.STDOUT, "result ok: é");
            r.accept(want);
            r.output(1, 1_700_000_000_223_456_789L, EventSink.STDERR, "");
        }
        try (RecordingReader rr = RecordingReader.open(f)) {
            assertSame(want, rr.drain());
            assertEquals(h, rr.hosts().get(1));
            assertEquals(2, rr.lines().size());
            RecordingReader.Line a = rr.lines().get(0), b = rr.lines().get(1);
            assertEquals(List.of(1, 1_700_000_000_123_456_789L, EventSink.STDOUT, "result ok: é"),
                    List.of(a.proc, a.time, a.stream, a.text));
            assertEquals(List.of(1, 1_700_000_000_223_456_789L, EventSink.STDERR, ""),
                    List.of(b.proc, b.time, b.stream, b.text));
        }
        byte[] bytes = Files.readAllBytes(f);
        assertEquals(2, bytes[13], "version 2 is written");
    }

    @Test
    void aVersion1Recording_stillOpens_withoutHosts() throws IOException {
        Path f = dir.resolve("v1.dsmrec");
        EventBuffer want = sample(50, 4);
        try (Recorder r = new Recorder(f)) {
            r.process(0, "m0");
            r.accept(want);
        }
        byte[] bytes = Files.readAllBytes(f);
        bytes[13] = 1; // a version-1 file: the same blocks without 'H' and 'O'
        Files.write(f, bytes);
        try (RecordingReader rr = RecordingReader.open(f)) {
            assertSame(want, rr.drain());
            assertTrue(rr.hosts().isEmpty());
            assertTrue(rr.lines().isEmpty());
        }
        bytes[13] = 3;
        Files.write(f, bytes);
        RecordingException e = assertThrows(RecordingException.class, () -> RecordingReader.open(f));
        assertTrue(e.getMessage().endsWith("byte 12: unsupported recording version 3"), e.getMessage());
    }

    @Test
    void processNamesAndNotesAreKept() throws IOException {
        Path f = dir.resolve("a.dsmrec");
        try (Recorder r = new Recorder(f)) {
            r.process(3, "m3");
            r.note("hello");
            r.accept(sample(10, 1));
        }
        try (RecordingReader rr = RecordingReader.open(f)) {
            rr.drain();
            assertEquals("m3", rr.processes().get(3));
            assertEquals(List.of("hello"), rr.notes());
            assertTrue(rr.complete());
        }
    }

    @Test
    void truncatedRecording_strictNamesTheOffset_lenientReadsUpToTheDamage() throws IOException {
        Path f = dir.resolve("t.dsmrec");
        EventBuffer want = sample(3 * Recorder.CHUNK_EVENTS, 7);
        try (Recorder r = new Recorder(f)) {
            r.accept(want);
        }
        byte[] all = Files.readAllBytes(f);
        Path cut = dir.resolve("cut.dsmrec");
        Files.write(cut, java.util.Arrays.copyOf(all, all.length * 2 / 3));
        RecordingException x = assertThrows(RecordingException.class, () -> RecordingReader.readAll(cut));
        assertTrue(x.getMessage().contains(cut.toString()) && x.getMessage().contains("byte "), x.getMessage());
        try (RecordingReader r = RecordingReader.openLenient(cut)) {
            EventBuffer got = r.drain();
            assertNotNull(r.damage());
            assertTrue(got.size() >= Recorder.CHUNK_EVENTS && got.size() < want.size()
                    && got.size() % Recorder.CHUNK_EVENTS == 0, "whole chunks before the damage: " + got.size());
            for (int i = 0; i < got.size(); i++) {
                assertEquals(want.describe(i), got.describe(i));
            }
        }
    }

    @Test
    void corruptByte_isAChecksumErrorAtTheBlockOffset() throws IOException {
        Path f = dir.resolve("c.dsmrec");
        try (Recorder r = new Recorder(f)) {
            r.accept(sample(Recorder.CHUNK_EVENTS + 5, 3));
        }
        byte[] all = Files.readAllBytes(f);
        all[all.length - 200] ^= 0x55;
        Files.write(f, all);
        RecordingException x = assertThrows(RecordingException.class, () -> RecordingReader.readAll(f));
        assertTrue(x.getMessage().contains("checksum") || x.getMessage().contains("length"), x.getMessage());
        assertTrue(x.getMessage().matches(".*byte \\d+.*"), x.getMessage());
    }

    @Test
    void seekByTime_usesTheIndexAndKeepsProcessNames() throws IOException {
        Path f = dir.resolve("s.dsmrec");
        EventBuffer b = new EventBuffer(3 * Recorder.CHUNK_EVENTS);
        for (int i = 0; i < b.capacity(); i++) {
            b.add(1000L * i, 0, EventType.ADVANCE.code, -1, 0, i, 0, 0, 0);
        }
        try (Recorder r = new Recorder(f)) {
            r.process(0, "m0");
            r.accept(b);
        }
        long target = 1000L * (2 * Recorder.CHUNK_EVENTS + 10);
        try (RecordingReader r = RecordingReader.open(f)) {
            r.seek(target);
            assertTrue(r.nextChunk());
            EventBuffer c = r.chunk();
            assertTrue(c.time[0] <= target && c.time[c.size() - 1] >= target);
            assertEquals(2L * Recorder.CHUNK_EVENTS, c.b[0]);
            assertEquals("m0", r.processes().get(0));
            assertFalse(r.nextChunk());
        }
    }

    @Test
    void notARecording_isOneClearError() throws IOException {
        Path f = dir.resolve("x.txt");
        Files.writeString(f, "hello world, this is not a recording");
        RecordingException x = assertThrows(RecordingException.class, () -> RecordingReader.open(f));
        assertTrue(x.getMessage().contains("not a dsmscope recording"), x.getMessage());
    }

    @Test
    void fullDisk_recordingStopsAndSaysSo_callersKeepRunning() throws IOException {
        ByteArrayOutputStream msgs = new ByteArrayOutputStream();
        int[] budget = {5000};
        WritableByteChannel failing = new WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) throws IOException {
                if (budget[0] <= 0) {
                    throw new IOException("No space left on device");
                }
                int n = Math.min(src.remaining(), budget[0]);
                src.position(src.position() + n);
                budget[0] -= n;
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        Recorder r = new Recorder(failing, "disk.dsmrec", new PrintStream(msgs, true, StandardCharsets.UTF_8));
        assertNull(r.failure());
        for (int i = 0; i < 5; i++) {
            r.accept(sample(Recorder.CHUNK_EVENTS, i));
        }
        r.close();
        assertNotNull(r.failure());
        String out = msgs.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("No space left on device") && out.contains("stopped"), out);
        assertEquals(1, out.lines().count(), "said once: " + out);
    }

    @Test
    void routerFlushesByTimerAndWhenBlocking_andClassesSwitchAtRunTime() throws Exception {
        org.dsmscope.monitor.event.MemorySink sink = new org.dsmscope.monitor.event.MemorySink();
        try (Router router = new Router(50)) {
            router.addSink(sink);
            Monitor m = router.monitor(0, "m0");
            m.emit(EventType.ADVANCE, -1, 1, 1, 0, 0, 0);
            long deadline = System.currentTimeMillis() + 5000;
            while (sink.all().size() == 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(1, sink.all().size(), "the timer flushed the buffer");
            router.setEnabled(org.dsmscope.monitor.event.Level.TRANSPORT, false);
            m.emit(EventType.FRAG_SEND, 1, 1, -1, 1, 100, 0);
            m.emit(EventType.AWAIT, -1, 1, 2, 2, 5, 5);
            m.blocking();
            EventBuffer all = sink.all();
            assertEquals(2, all.size());
            assertFalse(all.type[1] == EventType.FRAG_SEND.code);
        }
    }
}
