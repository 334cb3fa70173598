package org.dsmscope.trace;

/**
 * What the first field of a SMAIT record says (seed 000 Appendix A, extensions in {@link SmaitFormat}): the kind
 * tables {@link TraceReader}'s hot path looks records up in, and the byte-order inference of headerless files from
 * the shapes of their first records. Constants and pure functions only.
 */
final class RecordShapes {
    private RecordShapes() {
    }

    /** Valid memory-access type fields (index: the 12-bit first field). */
    static final boolean[] MEM_VALID = new boolean[0x1000];
    /** Bytes accessed for each type field. */
    static final int[] MEM_BYTES = new int[0x1000];

    /** Record kind by the top hex digit of a branch record's first field; 0 for other digits. */
    static final int[] BRANCH_KIND = new int[16];
    /**
     * Kind of a checked hot-path word by its top byte: 00 memory (the scan checked the type field), 10 fetch, 4x,
     * 8x, Cx the branch kinds.
     */
    static final int[] FAST_KIND = new int[256];
    /** Hot-path kind by the top hex digit: branch kinds, and FETCH for digit 1 (checked further). */
    static final int[] TOP_KIND = new int[16];
    /** {@link RecordKind#MEMORY} for valid memory-access type fields, else 0 (index: the 12-bit first field). */
    static final int[] MEM_KIND = new int[0x1000];
    static {
        BRANCH_KIND[4] = RecordKind.PROC_START;
        BRANCH_KIND[8] = RecordKind.BRANCH;
        BRANCH_KIND[0xC] = RecordKind.PROC_CALL;
        System.arraycopy(BRANCH_KIND, 0, TOP_KIND, 0, 16);
        TOP_KIND[1] = RecordKind.FETCH;
        for (int f = 0; f < 0x1000; f++) {
            MEM_KIND[f] = MemType.valid(f) ? RecordKind.MEMORY : 0;
        }
        for (int b = 0; b < 256; b++) {
            FAST_KIND[b] = BRANCH_KIND[b >>> 4];
        }
        FAST_KIND[0] = RecordKind.MEMORY;
        FAST_KIND[0x10] = RecordKind.FETCH;
        for (int f = 0; f < 0x1000; f++) {
            MEM_VALID[f] = MemType.valid(f);
            MEM_BYTES[f] = MEM_VALID[f] ? MemType.bytes(f) : 0;
        }
    }

    /** Records a headerless file needs before its byte order can be inferred from their shapes. */
    static final int LE_EVIDENCE = 64;
    /** Records a headerless file's byte-order detection looks at, at most. */
    static final int LE_SAMPLE = 4096;

    /**
     * Headerless files: little-endian only if certain (see {@link SmaitFormat}), judged from the first
     * {@code avail} words of {@code words}, which are still big-endian here.
     */
    static boolean looksLittleEndian(long[] words, int avail) {
        if (avail < 1) {
            return false;
        }
        int be = (int) (words[0] >>> 32);
        if (validFirstWord(be)) {
            if (avail < LE_EVIDENCE) {
                return false;
            }
            // Every one of the first records valid read little-endian, some memory or call records among them,
            // and not one memory or call record read big-endian (a big-endian SMAIT file has them early).
            int n = Math.min(avail, LE_SAMPLE);
            boolean memOrCall = false;
            for (int i = 0; i < n; i++) {
                int w = (int) (words[i] >>> 32);
                int le = Integer.reverseBytes(w);
                if ((w >>> 28) == 0 || !validFirstWord(le)) {
                    return false;
                }
                memOrCall |= (le >>> 28) == 0;
            }
            return memOrCall;
        }
        if (avail < SmaitFormat.CALL_PARTS) {
            return false;
        }
        int type = (Integer.reverseBytes(be) >>> 4) & 0xFF;
        for (int i = 0; i < SmaitFormat.CALL_PARTS; i++) {
            if (Integer.reverseBytes((int) (words[i] >>> 32)) != SmaitFormat.callTag(type, i)) {
                return false;
            }
        }
        return CallType.isKnown(type);
    }

    /** True if {@code f1} can be the first field of a valid record of a headerless classic file. */
    static boolean validFirstWord(int f1) {
        int top = f1 >>> 28;
        if (top == 0) {
            return f1 < 0x1000 ? MemType.valid(f1) : f1 < 0x2000 && CallType.isKnown((f1 >>> 4) & 0xFF);
        }
        return top == 4 || top == 8 || top == 0xC;
    }
}
