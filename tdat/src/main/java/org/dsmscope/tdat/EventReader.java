package org.dsmscope.tdat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.cdat.TrafficReader;
import org.dsmscope.trace.cdat.Txn;

/**
 * Streams one input file into {@link Bins}: detects its kind from its first line that is not empty (a CIAT event
 * trace, a CDAT general or detailed trace), then reads it line by line, never whole, counting the selected events.
 * CDAT traces go through {@link TrafficReader}. Bad input is a {@link BadInputException} naming the file, the line
 * and what is wrong.
 */
final class EventReader {
    /** The header line of the CIAT event trace this reader reads. */
    static final String CIAT_HEADER = "# dsmscope-ciat-events 1";
    private static final String CIAT_PREFIX = "# dsmscope-ciat-events ";
    private static final int CIAT_FIELDS = 4;

    private final Path file;
    private final Selection selection;
    private final Bins bins;
    private long records;
    private long events;
    // token bounds of the current CIAT line, reused
    private final int[] from = new int[CIAT_FIELDS + 1];
    private final int[] to = new int[CIAT_FIELDS + 1];

    private EventReader(Path file, Selection selection, Bins bins) {
        this.file = file;
        this.selection = selection;
        this.bins = bins;
    }

    /** Reads {@code file}, counting its selected events into {@code bins}; returns what it was and held. */
    static Tdat.Input read(Path file, Selection selection, Bins bins) {
        if (!Files.exists(file)) {
            throw new BadInputException(file + ": no such file");
        }
        org.dsmscope.trace.InputFile.check(file, null, "event trace", true);
        EventReader r = new EventReader(file, selection, bins);
        InputKind kind;
        try {
            kind = r.run();
        } catch (CharacterCodingException e) {
            throw new BadInputException(file + ": not a text event trace (it holds bytes that are not ASCII)", e);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
        return new Tdat.Input(file, kind, r.records, r.events);
    }

    private InputKind run() throws IOException {
        String first;
        long lineNo = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            do {
                first = in.readLine();
                lineNo++;
            } while (first != null && first.isBlank());
            if (first == null) {
                return InputKind.EMPTY;
            }
            if (first.startsWith(CIAT_PREFIX)) {
                if (!first.strip().equals(CIAT_HEADER)) {
                    throw bad(lineNo, "CIAT event trace format '" + first.substring(2).strip() + "' not supported"
                            + " (tdat reads '" + CIAT_HEADER.substring(2) + "')");
                }
                readCiat(in, lineNo);
                return InputKind.CIAT_EVENTS;
            }
        }
        String[] t = first.strip().split("\\s+");
        if (t.length == 7) {
            readCdat(false);
            return InputKind.CDAT_DETAILED;
        }
        if (t.length >= 9 && t[t.length - 1].equals("-1")) {
            readCdat(true);
            return InputKind.CDAT_GENERAL;
        }
        throw bad(lineNo, "not an event trace tdat reads: expected a CIAT event trace (first line '" + CIAT_HEADER
                + "'), a CDAT general trace ('clock addr code proc node bank hnode status sharing_list -1') or a"
                + " CDAT detailed trace (7 fields); found " + (first.startsWith("#") ? "a '#' line" : t.length
                + " field(s)"));
    }

    // ---- CIAT event traces: "clock type processor degree", '#' lines are comments ----

    private void readCiat(BufferedReader in, long lineNo) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            int n = tokens(line);
            if (n == 0) {
                continue;
            }
            if (n != CIAT_FIELDS) {
                throw bad(lineNo, "a CIAT event has " + CIAT_FIELDS + " fields (clock type processor degree), found "
                        + (n > CIAT_FIELDS ? "more than " + CIAT_FIELDS : String.valueOf(n)));
            }
            records++;
            long clock = number(line, 0, lineNo, "clock");
            if (clock < 0) {
                throw bad(lineNo, "negative clock " + clock);
            }
            int type = type(line, lineNo);
            long proc = number(line, 2, lineNo, "processor");
            if (proc < 0 || proc > Integer.MAX_VALUE) {
                throw bad(lineNo, "processor " + proc + " out of range (0.." + Integer.MAX_VALUE + ")");
            }
            long degree = number(line, 3, lineNo, "degree");
            if (degree < 0) {
                throw bad(lineNo, "negative degree " + degree);
            }
            if (selection.ciat(type, (int) proc)) {
                count(clock, lineNo);
            }
        }
    }

    /** Splits {@code line} at spaces and tabs into {@link #from} / {@link #to}; returns the count, at most 5. */
    private int tokens(String line) {
        int n = 0;
        int i = 0;
        int len = line.length();
        while (n <= CIAT_FIELDS) {
            while (i < len && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
                i++;
            }
            if (i == len) {
                break;
            }
            from[n] = i;
            while (i < len && line.charAt(i) != ' ' && line.charAt(i) != '\t') {
                i++;
            }
            to[n++] = i;
        }
        return n;
    }

    private long number(String line, int field, long lineNo, String what) {
        try {
            return Long.parseLong(line, from[field], to[field], 10);
        } catch (NumberFormatException e) {
            throw bad(lineNo, what + " '" + line.substring(from[field], to[field]) + "' is not a decimal number");
        }
    }

    private int type(String line, long lineNo) {
        int a = from[1];
        if (to[1] - a == 3) {
            for (int i = 0; i < Selection.CIAT_TYPES.length; i++) {
                if (line.startsWith(Selection.CIAT_TYPES[i], a)) {
                    return i;
                }
            }
        }
        throw bad(lineNo, "unknown event type '" + line.substring(a, to[1]) + "' (RAW, WAR, WAW or RAR)");
    }

    private void count(long clock, long lineNo) {
        if (!bins.add(clock)) {
            throw tooManyBins(lineNo, clock);
        }
        events++;
    }

    private BadInputException tooManyBins(long lineNo, long clock) {
        return bad(lineNo, "clock " + clock + " with BIN " + bins.width() + " needs more than " + Bins.MAX_BINS
                + " bins: give a BIN of at least " + Bins.minimumWidth(clock));
    }

    // ---- CDAT traces, through TrafficReader ----

    private void readCdat(boolean general) throws IOException {
        // TrafficReader refuses negative clocks and names the line; it gives each record's line for ours
        TrafficReader.Consumer c = r -> {
            records++;
            int node = general || !Txn.fromMemory(r.code) ? r.f[1] : r.f[3];
            if (selection.cdat(r.code, node)) {
                if (!bins.add(r.clock)) {
                    throw tooManyBins(r.line, r.clock);
                }
                events++;
            }
        };
        if (general) {
            TrafficReader.readGeneral(file, c);
        } else {
            TrafficReader.readDetailed(file, c);
        }
    }

    private BadInputException bad(long line, String what) {
        return new BadInputException(file + ": line " + line + ": " + what);
    }
}
