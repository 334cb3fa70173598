package org.dsmscope.cli;

import java.nio.ByteOrder;
import org.dsmscope.trace.Codec;

/** Parsing of the trace options several commands share (byte order, trace type and codec). */
final class CliOptions {
    private CliOptions() {
    }

    /** {@code big} / {@code little} → the byte order; null → {@code dflt}. */
    static ByteOrder byteOrder(String s, ByteOrder dflt) {
        if (s == null) {
            return dflt;
        }
        switch (s.toLowerCase()) {
            case "big": case "big-endian": return ByteOrder.BIG_ENDIAN;
            case "little": case "little-endian": return ByteOrder.LITTLE_ENDIAN;
            default: throw new UserError("unknown byte order '" + s + "' (expected big or little)");
        }
    }

    /** The codec for {@code --type normal|compressed} and {@code --codec}. */
    static Codec codec(String type, String codec) {
        String t = type == null ? (codec == null ? "normal" : "compressed") : type.toLowerCase();
        switch (t) {
            case "normal":
                if (codec != null && !codec.equalsIgnoreCase("none")) {
                    throw new UserError("--codec " + codec + " needs --type compressed");
                }
                return Codec.NONE;
            case "compressed":
                Codec c = codec == null ? Codec.DEFAULT_COMPRESSED : Codec.parse(codec);
                if (c == Codec.NONE) {
                    throw new UserError("--type compressed needs a codec (zstd or lz4), not none");
                }
                return c;
            default:
                throw new UserError("unknown trace type '" + type + "' (files are written as normal or compressed;"
                        + " suppressed, to_ciat and to_cdat are collection modes, not file types)");
        }
    }
}
