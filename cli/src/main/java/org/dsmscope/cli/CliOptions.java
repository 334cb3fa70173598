package org.dsmscope.cli;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.options.ReadFlags;
import org.dsmscope.trace.Codec;

/** Parsing of the trace options several commands share (byte order, trace type, codec, output names). */
final class CliOptions {
    private CliOptions() {
    }

    /** {@code big} / {@code little} → the byte order; null → {@code dflt}. */
    static ByteOrder byteOrder(String s, ByteOrder dflt) {
        return ReadFlags.byteOrder(s, dflt);
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

    /**
     * Checks the name {@code name} of a trace set to be written (option {@code option}): not empty, not a folder
     * name, in a folder that exists and is writable. Returns it.
     */
    static String outputName(String option, String name) {
        Path p;
        try {
            p = Path.of(name);
        } catch (java.nio.file.InvalidPathException e) {
            throw new UserError("option " + option + ": '" + name + "' is not a file name: " + e.getReason());
        }
        if (name.isEmpty() || name.endsWith("/") || p.getFileName() == null
                || p.getFileName().toString().equals(".") || p.getFileName().toString().equals("..")) {
            throw new UserError("option " + option + ": '" + name + "' is not a trace set name (files NAME.p.t)");
        }
        Path parent = p.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new UserError("option " + option + ": cannot write " + name + ": folder " + parent
                    + (Files.exists(parent) ? " is not a directory" : " does not exist"));
        }
        if (parent != null && !Files.isWritable(parent)) {
            throw new UserError("option " + option + ": cannot write " + name + ": folder " + parent
                    + " is not writable");
        }
        return name;
    }
}
