package org.dsmscope.options;

import java.io.Serializable;
import java.nio.ByteOrder;
import java.util.Locale;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.BadInputException;
import picocli.CommandLine.Option;

/**
 * How the trace files are read (SPEC §2, seed 000 §3): bad records skipped or fatal, the byte order of headerless
 * files and the instruction stream's source; a picocli mixin of {@code dsmscope ciat|cdat} and {@code dsmscope
 * cluster ciat|cdat}, after {@link ReplayFlags} (cli's commands mix in an option of their own between them).
 */
public final class ReadFlags implements Serializable {
    private static final long serialVersionUID = 1L;

    @Option(names = "--skip-bad-records", description = "continue past bad records, counting them")
    boolean skipBad;

    @Option(names = "--byte-order", paramLabel = "big|little",
            description = "byte order of headerless trace files (default: big-endian unless detected)")
    String byteOrder;

    @Option(names = "--seed-stream", description = {"rebuild the instruction stream as seed 000 §3 does even when",
        "the symbol sidecar NAME.p.symbols gives the memory-access offsets (default: exactly from them)"})
    boolean seedStream;

    /** Sets the skipping of bad records, the byte order and the instruction stream's source of {@code o}. */
    void applyTo(ReplayOptions o) {
        o.skipBadRecords = skipBad;
        o.exactStream = !seedStream;
        o.byteOrder = byteOrder(byteOrder, null);
    }

    /**
     * {@code big} / {@code little} (or {@code big-endian} / {@code little-endian}) → the byte order; null → {@code
     * dflt}; anything else a {@link BadInputException} (one line, exit status 2).
     */
    public static ByteOrder byteOrder(String s, ByteOrder dflt) {
        if (s == null) {
            return dflt;
        }
        switch (s.toLowerCase(Locale.ROOT)) {
            case "big": case "big-endian": return ByteOrder.BIG_ENDIAN;
            case "little": case "little-endian": return ByteOrder.LITTLE_ENDIAN;
            default: throw new BadInputException("unknown byte order '" + s + "' (expected big or little)");
        }
    }
}
