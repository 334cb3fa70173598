package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ReadableByteChannel;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.WordChannel;

/**
 * The readers of a replay's streams that are not trace files (seed 000 §2 on-the-fly analysis; SPEC §4
 * "Partitioning", module README "Partitioned replay"): a live source's stream, and a routed partition's stream of a
 * thread, with the buffer of a file replay.
 */
final class Readers {
    private Readers() {
    }

    /** A reader of the live stream {@code in} of the trace named {@code name}, with the options and buffer of a file replay. */
    static TraceReader live(ReadableByteChannel in, String name, ReplayOptions o) {
        try {
            return new TraceReader(in, name, TraceReader.Options.defaults()
                    .skipBadRecords(o.skipBadRecords).bufferBytes(Prescan.REPLAY_BUFFER).liveHints(true));
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * A reader of a routed stream {@code in} (a {@link WordChannel} from the router's pipes, or a
     * {@link ReadableByteChannel} of bytes) of the trace named {@code name}; {@code live}: with join hints.
     */
    static TraceReader routed(Object in, String name, boolean live) {
        try {
            TraceReader.Options ro = TraceReader.Options.defaults().bufferBytes(Prescan.REPLAY_BUFFER).routedGaps(true)
                    .liveHints(live);
            return in instanceof WordChannel ? new TraceReader((WordChannel) in, name, ro)
                    : new TraceReader((ReadableByteChannel) in, name, ro);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Per thread, whether the live {@code source} announces instruction-fetch records. */
    static boolean[] fetch(Replay.Source source, int n) {
        boolean[] f = new boolean[n];
        for (int t = 0; t < n; t++) {
            f[t] = source.hasFetch(t);
        }
        return f;
    }
}
