package org.dsmscope.cdat;

/**
 * The coherence checker (SPEC §6), on with {@code dsmscope cdat --check} and in the tests: every line has a version
 * that each store (and each disk read into it) increases; caches and memory keep the version of the data they hold.
 * Each load and instruction fetch must see the latest version, and {@link #verify} checks the whole machine: at most
 * one writable copy per line, the directory agrees with the caches (every cached copy's processor is in the sharing
 * list, or, for a shared copy, its node's interconnect cache is listed; every interconnect cache copy is listed and
 * current; a writable copy only under an exclusive or dirty status naming its processor alone), and memory holds the
 * latest version of every line no cache holds modified. A violation is an {@link IllegalStateException} naming the
 * line, the processors and the versions: a defect of the simulator, never of the input.
 */
public final class CoherenceChecker {
    private CoherenceChecker() {
    }

    static void load(Machine m, int g, long ln, long version) {
        int id = m.entry(ln, g / m.ppn);
        if (version != m.latest[id]) {
            throw new IllegalStateException("coherence: processor " + g + " read line 0x" + Long.toHexString(ln)
                    + " version " + version + ", latest " + m.latest[id]);
        }
    }

    static long store(Machine m, int g, long ln) {
        int id = m.entry(ln, g / m.ppn);
        return ++m.latest[id];
    }

    static long ioStore(Machine m, int id) {
        return ++m.latest[id];
    }

    static void ioLoad(Machine m, int id, long version) {
        if (version != m.latest[id]) {
            throw new IllegalStateException("coherence: an I/O processor read line 0x"
                    + Long.toHexString(m.lineOf[id]) + " version " + version + ", latest " + m.latest[id]);
        }
    }

    /** Checks the invariants over every line and cache of {@code m} (versions must be on). */
    static void verify(Machine m) {
        if (!m.versions) {
            throw new IllegalStateException("the checker needs versions");
        }
        int lines = m.entryCapacity();
        int[] writable = new int[lines];
        java.util.Arrays.fill(writable, -1);
        boolean[] modified = new boolean[lines];
        for (int g = 0; g < m.processors; g++) {
            for (int pass = 0; pass < 2; pass++) {
                CacheArray c = pass == 0 ? m.dcache[g] : m.icache[g];
                for (int i = 0; i < c.state.length; i++) {
                    byte s = c.state[i];
                    if (s == CacheArray.INVALID) {
                        continue;
                    }
                    long ln = c.line[i];
                    int id = m.entry(ln, g / m.ppn);
                    String where = "processor " + g + (pass == 0 ? " data" : " instruction") + " cache, line 0x"
                            + Long.toHexString(ln);
                    if ((m.sharers[2 * id + (g >>> 6)] & 1L << g) == 0
                            && (s != CacheArray.SHARED || (m.icNodes[id] & 1 << g / m.ppn) == 0)) {
                        throw new IllegalStateException("coherence: " + where + " not in the sharing list"
                                + " (nor covered by its node's interconnect cache)");
                    }
                    if (s == CacheArray.SHARED && c.version[i] != m.latest[id]) {
                        throw new IllegalStateException("coherence: " + where + " shared copy has version "
                                + c.version[i] + ", latest " + m.latest[id]);
                    }
                    if (s == CacheArray.EXCLUSIVE || s == CacheArray.MODIFIED) {
                        if (writable[id] >= 0) {
                            throw new IllegalStateException("coherence: " + where + " writable, and also at processor "
                                    + writable[id]);
                        }
                        writable[id] = g;
                        modified[id] = s == CacheArray.MODIFIED;
                        byte st = m.status[id];
                        int sharers = Long.bitCount(m.sharers[2 * id]) + Long.bitCount(m.sharers[2 * id + 1]);
                        if (st != Machine.DIR_EXCLUSIVE && st != Machine.DIRTY || sharers != 1) {
                            throw new IllegalStateException("coherence: " + where + " writable, directory status "
                                    + st + " with " + sharers + " sharer(s)");
                        }
                        if (c.version[i] != m.latest[id]) {
                            throw new IllegalStateException("coherence: " + where + " writable copy has version "
                                    + c.version[i] + ", latest " + m.latest[id]);
                        }
                    }
                }
            }
        }
        for (int n = 0; m.ic != null && n < m.ic.length; n++) {
            CacheArray c = m.ic[n];
            for (int i = 0; i < c.state.length; i++) {
                if (c.state[i] == CacheArray.INVALID) {
                    continue;
                }
                int id = m.entry(c.line[i], n);
                String where = "node " + n + " interconnect cache, line 0x" + Long.toHexString(c.line[i]);
                if ((m.icNodes[id] & 1 << n) == 0) {
                    throw new IllegalStateException("coherence: " + where + " not listed by the directory");
                }
                if (c.version[i] != m.latest[id]) {
                    throw new IllegalStateException("coherence: " + where + " has version " + c.version[i]
                            + ", latest " + m.latest[id]);
                }
            }
        }
        for (int id = 0; id < lines; id++) {
            if (m.status.length > id && m.status[id] != 0 && !modified[id] && m.memVersion[id] != m.latest[id]) {
                throw new IllegalStateException("coherence: memory holds version " + m.memVersion[id] + " of line 0x"
                        + Long.toHexString(m.lineOf[id]) + ", latest " + m.latest[id] + ", and no cache has it"
                        + " modified");
            }
        }
    }
}
