package org.dsmscope.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.sidecar.SymbolFile;

/**
 * Exact instruction-stream reconstruction (SPEC §4): where a thread's next memory-access instruction is, from the
 * offsets the symbol sidecar ({@code NAME.p.symbols}, {@link SymbolFile#accessOffsets}) gives per method. Seed 000 §3
 * puts each memory-access record's instruction at the program counter; with these offsets the replay first fetches
 * the instructions between the counter and the next memory-access instruction of the method, then that one
 * (module README "Instruction stream"). One per replay; a per-thread cache of the last method keeps the lookup off
 * the method table while a thread stays in one method.
 */
final class CodeMap {
    /** What a bad sidecar's error adds: how to analyse the trace without it. */
    static final String IGNORE = " (the seed's reconstruction ignores it: dsmscope ciat --seed-stream)";
    private final SymbolFile symbols;
    private final int[] lastMethod;

    private CodeMap(SymbolFile symbols, int threads) {
        this.symbols = symbols;
        this.lastMethod = new int[threads];
        Arrays.fill(lastMethod, -1);
    }

    /**
     * The map of trace set {@code set}'s symbol sidecar, or null when there is none or it gives no memory-access
     * offsets (levels 1 and 2, imported traces). A sidecar that cannot be read is a {@link BadInputException}.
     */
    static CodeMap load(TraceSet set, int threads) {
        return of(read(set), threads);
    }

    /** The symbol sidecar of {@code set} if it exists and gives memory-access offsets, else null. */
    static SymbolFile read(TraceSet set) {
        Path f = SymbolFile.pathFor(set.base());
        if (!Files.isRegularFile(f)) {
            return null;
        }
        SymbolFile s;
        try {
            s = SymbolFile.read(f);
        } catch (IOException e) {
            throw new BadInputException(f + ": cannot read the symbol sidecar: " + e.getMessage() + IGNORE);
        } catch (BadInputException e) {
            throw new BadInputException(e.getMessage() + IGNORE, e);
        }
        for (int m = 0; m < s.size(); m++) {
            if (s.accessOffsets(m).length > 0) {
                return s;
            }
        }
        return null;
    }

    /** A map over {@code symbols} (null: none) for {@code threads} threads: one per replay, for its thread. */
    static CodeMap of(SymbolFile symbols, int threads) {
        return symbols == null ? null : new CodeMap(symbols, threads);
    }

    /**
     * The address of thread {@code t}'s next memory-access instruction at or after {@code pc} in the method holding
     * {@code pc}, or -1 if the sidecar knows none there (outside any method, or past the method's last one).
     */
    long nextAccess(int t, long pc) {
        int m = lastMethod[t];
        if (m < 0 || pc < symbols.start(m) || pc >= symbols.end(m)) {
            m = symbols.methodAt(pc);
            lastMethod[t] = m;
            if (m < 0) {
                return -1;
            }
        }
        int[] offs = symbols.accessOffsets(m);
        long rel = pc - symbols.start(m);
        int i = Arrays.binarySearch(offs, (int) Math.min(rel, Integer.MAX_VALUE));
        if (i < 0) {
            i = -i - 1;
        }
        return i < offs.length ? symbols.start(m) + offs[i] : -1;
    }
}
