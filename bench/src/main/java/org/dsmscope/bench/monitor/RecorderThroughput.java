package org.dsmscope.bench.monitor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.record.Recorder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Recorder throughput (target ≥ 500,000 events/s): encoding realistic event batches (timestamps a few µs apart,
 * small fields) into "DSMSCOPE-REC" chunks, to a channel that drops the bytes and to a real file. One operation is
 * one event. Run: {@code java -jar bench/target/benchmarks.jar RecorderThroughput}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class RecorderThroughput {
    private static final int BATCH = 4096;
    private EventBuffer batch;
    private Recorder nullRec;
    private Recorder fileRec;
    private Path file;

    /** A batch like the monitor produces: mixed levels, close timestamps. */
    public static EventBuffer realistic(int n) {
        EventBuffer b = new EventBuffer(n);
        java.util.Random r = new java.util.Random(42);
        EventType[] types = {EventType.FRAG_SEND, EventType.FRAG_RECV, EventType.ACK_RECV, EventType.MSG_SEND_BEGIN,
            EventType.MSG_SEND_END, EventType.MSG_RECEIVE_END, EventType.ADVANCE, EventType.PUT_UPDATES};
        long t = 1_700_000_000_000_000_000L;
        for (int i = 0; i < n; i++) {
            t += 500 + r.nextInt(5000);
            b.add(t, 1, types[r.nextInt(types.length)].code, r.nextInt(4), r.nextInt(100_000), r.nextInt(8),
                    r.nextInt(3), 200 + r.nextInt(8000), 0);
        }
        return b;
    }

    /** Prepares recorders. */
    @Setup(Level.Trial)
    public void setup() throws IOException {
        batch = realistic(BATCH);
        nullRec = new Recorder(new WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) {
                int n = src.remaining();
                src.position(src.limit());
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        }, "null", System.err);
        file = Files.createTempFile("bench", ".dsmrec");
        fileRec = new Recorder(file);
    }

    /** Closes recorders. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        nullRec.close();
        fileRec.close();
        Files.deleteIfExists(file);
    }

    /** Encoding only. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void encodeToNullChannel() {
        nullRec.accept(batch);
    }

    /** Encoding and writing to a file. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void recordToFile() {
        fileRec.accept(batch);
    }

    /** Quick timed run without JMH: prints events per second to a file. */
    public static void main(String[] args) throws IOException {
        EventBuffer b = realistic(BATCH);
        Path f = Files.createTempFile("bench", ".dsmrec");
        int rounds = 2000;
        for (int warm = 0; warm < 2; warm++) {
            try (Recorder r = new Recorder(f)) {
                long t0 = System.nanoTime();
                for (int i = 0; i < rounds; i++) {
                    r.accept(b);
                }
                r.flush();
                long dt = System.nanoTime() - t0;
                if (warm == 1) {
                    System.out.printf(java.util.Locale.ROOT, "recorder: %d events in %.2f s = %.0f events/s, %.1f bytes/event%n",
                            (long) rounds * BATCH, dt / 1e9, rounds * (double) BATCH / (dt / 1e9),
                            Files.size(f) / ((double) rounds * BATCH));
                }
            }
        }
        Files.deleteIfExists(f);
        // the instrumentation path: emit into a per-process buffer, flushed to a recorder
        Path g = Files.createTempFile("bench", ".dsmrec");
        try (org.dsmscope.monitor.Router router = new org.dsmscope.monitor.Router();
             Recorder r = new Recorder(g)) {
            router.addSink(r);
            org.dsmscope.monitor.Monitor m = router.monitor(0, "m0");
            int n = 20_000_000;
            for (int warm = 0; warm < 2; warm++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    m.emit(EventType.FRAG_SEND, 1, i, -1, 2, 120, 0);
                }
                m.flush();
                long dt = System.nanoTime() - t0;
                if (warm == 1) {
                    System.out.printf(java.util.Locale.ROOT,
                            "monitor emit + routing + recording: %.0f ns/event (%.0f events/s)%n", dt / (double) n,
                            n / (dt / 1e9));
                }
            }
        }
        Files.deleteIfExists(g);
    }
}
