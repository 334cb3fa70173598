package org.dsmscope.trace.lackey;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;

/**
 * The synchronization addresses a user names on a Lackey import ({@code --sync-addresses}, {@code
 * --sync-address-file}): lock words that a native trace cannot tell from data (seed 001 §5.1 leaves
 * synchronization variables out of communication; Lackey records no lock operation). Each entry is {@code ADDR}
 * (one byte: accesses starting at that address) or {@code ADDR+BYTES} (accesses starting at any of those bytes,
 * e.g. a whole {@code pthread_mutex_t}); addresses hex with {@code 0x} or decimal, bytes decimal, 1 to {@value
 * CallType#SYNC_RANGE_MAX}. The importer writes them as {@link CallType#SYNC_RANGE} records.
 */
public final class SyncAddresses {
    private SyncAddresses() {
    }

    /** Parses a comma-separated list; {@code where} names the option in errors. Returns {address, bytes} pairs. */
    public static List<long[]> parseList(String where, String text) {
        List<long[]> out = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            out.add(parse(where, item));
        }
        return out;
    }

    /**
     * Reads a file of entries, one or more per line (comma or space separated), {@code #} starting a comment;
     * errors name the file and line.
     */
    public static List<long[]> read(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such sync-address file");
        }
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int hash = l.indexOf('#');
            String body = (hash >= 0 ? l.substring(0, hash) : l).strip();
            if (body.isEmpty()) {
                continue;
            }
            for (String item : body.split("[,\\s]+")) {
                out.add(parse(file + ": line " + (i + 1), item));
            }
        }
        return out;
    }

    /** Parses one {@code ADDR} or {@code ADDR+BYTES}. */
    public static long[] parse(String where, String item) {
        String t = item.strip();
        int plus = t.indexOf('+');
        long addr = address(where, plus < 0 ? t : t.substring(0, plus), item);
        long bytes = 1;
        if (plus >= 0) {
            try {
                bytes = Long.parseLong(t.substring(plus + 1).strip());
            } catch (NumberFormatException e) {
                bytes = -1;
            }
            if (bytes < 1 || bytes > CallType.SYNC_RANGE_MAX) {
                throw new BadInputException(where + ": '" + item + "': the byte count after '+' must be 1 to "
                        + CallType.SYNC_RANGE_MAX);
            }
        }
        if (Long.compareUnsigned(addr, -bytes) > 0) {
            throw new BadInputException(where + ": '" + item + "' runs past the end of the 64-bit address space");
        }
        return new long[] {addr, bytes};
    }

    private static long address(String where, String s, String item) {
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new BadInputException(where + ": '" + item + "' is not an address (hex 0x... or decimal,"
                    + " optionally +BYTES)");
        }
    }
}
