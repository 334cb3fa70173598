package org.dsmscope.agent.core;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The agent's sidecars beside a trace set (SPEC §2): the symbol file {@code NAME.p.symbols} (code ranges → class,
 * method, source lines, memory-access slots) and the data map {@code NAME.p.datamap} (data ranges → type,
 * allocation site). Text formats "dsmscope-agent-symbols 1" and "dsmscope-agent-datamap 1", documented in
 * agent/README.md. They sit behind this one class so they can move to the trace module's sidecar writers.
 */
public final class Sidecars {
    /** First lines of the data map. */
    static final String DATAMAP_HEADER = "# dsmscope-agent-datamap 1\n"
            + "# region NAME LO HI | obj ADDR SIZE TYPE SITE | static ADDR SIZE CLASS -\n"
            + "# class TYPE SIZE | field TYPE OFFSET SIZE DECLARER.NAME FIELDTYPE | sfield CLASS OFFSET SIZE CLASS.NAME FIELDTYPE\n"
            + "region code 0x" + Long.toHexString(Addresses.CODE_BASE) + " 0x" + Long.toHexString(Addresses.CODE_LIMIT)
            + "\nregion static 0x" + Long.toHexString(Addresses.STATIC_BASE) + " 0x"
            + Long.toHexString(Addresses.HEAP_BASE)
            + "\nregion heap 0x" + Long.toHexString(Addresses.HEAP_BASE) + " -\n";

    private static final StringBuilder SYMBOLS = new StringBuilder();

    private Sidecars() {
    }

    /**
     * Records a method's code range [lo, hi) with its class/method, source file, slot→line pairs and the slots
     * of its memory-access instructions.
     */
    public static synchronized void symbol(long lo, long hi, String method, String source, int[] lines,
            int[] memSlots) {
        SYMBOLS.append("method 0x").append(Long.toHexString(lo)).append(" 0x").append(Long.toHexString(hi))
                .append(' ').append(method).append(' ').append(source == null ? "-" : source).append('\n');
        if (lines != null && lines.length > 0) {
            SYMBOLS.append("lines");
            for (int i = 0; i + 1 < lines.length; i += 2) {
                SYMBOLS.append(' ').append(lines[i]).append(':').append(lines[i + 1]);
            }
            SYMBOLS.append('\n');
        }
        if (memSlots != null && memSlots.length > 0) {
            SYMBOLS.append("mem");
            for (int s : memSlots) {
                SYMBOLS.append(' ').append(s);
            }
            SYMBOLS.append('\n');
        }
    }

    static synchronized void writeSymbols(Path file) {
        if (SYMBOLS.length() == 0) {
            return;
        }
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("# dsmscope-agent-symbols 1\n");
            w.write("# method LO HI CLASS.NAME+DESC SOURCE | lines SLOT:LINE... | mem SLOT...\n");
            w.append(SYMBOLS);
        } catch (IOException e) {
            TraceRuntime.warn("cannot write symbols " + file + ": " + e.getMessage());
        }
    }
}
