package org.dsmscope.trace;

/**
 * The memory-access type field (seed 000 A.2, Figure 4 as SPEC §2 decodes its two examples {@code 00000040} =
 * load word into a fixed-point register and {@code 00000181} = store double-word from a floating-point register):
 *
 * <pre>
 *   0x00000RSK   K = access kind (0 load, 1 store)
 *                S = size code: 0 zero bytes (store only), 1, 2, 3, 4, 8 = that many bytes;
 *                    extensions A = 16, B = 32, C = 64 bytes (vector accesses of native traces)
 *                R = register type: 0 fixed-point, 1 floating-point; extension 2 = vector / unknown
 * </pre>
 *
 * Any other size is written as a wide memory-access extension record (see {@link TraceWriter}); an access is
 * never split.
 */
public final class MemType {
    /** Access kind: load. */
    public static final int LOAD = 0;
    /** Access kind: store. */
    public static final int STORE = 1;
    /** Register type: fixed-point. */
    public static final int FIXED = 0;
    /** Register type: floating-point. */
    public static final int FLOAT = 1;
    /** Register type (extension): vector, or unknown as in native traces without register information. */
    public static final int VECTOR = 2;

    /** Size code → bytes; -1 for codes that are not defined. */
    private static final int[] SIZE_OF_CODE = {0, 1, 2, 3, 4, -1, -1, -1, 8, -1, 16, 32, 64, -1, -1, -1};

    private MemType() {
    }

    /** The size code for {@code bytes}, or -1 if the size has no code (use a wide record). */
    public static int sizeCode(int bytes) {
        switch (bytes) {
            case 0: return 0;
            case 1: return 1;
            case 2: return 2;
            case 3: return 3;
            case 4: return 4;
            case 8: return 8;
            case 16: return 0xA;
            case 32: return 0xB;
            case 64: return 0xC;
            default: return -1;
        }
    }

    /** Bytes for a size code, -1 if undefined. */
    public static int bytesOfCode(int code) {
        return SIZE_OF_CODE[code & 0xF];
    }

    /** True if a type field can encode this access. */
    public static boolean encodable(int kind, int bytes, int reg) {
        return (kind == LOAD || kind == STORE) && reg >= 0 && reg <= VECTOR && sizeCode(bytes) >= 0
                && !(bytes == 0 && kind == LOAD);
    }

    /** The type field for an access; see {@link #encodable}. */
    public static int encode(int kind, int bytes, int reg) {
        return (reg << 8) | (sizeCode(bytes) << 4) | kind;
    }

    /** True if {@code field1} (already known to be below 0x1000) is a valid memory-access type field. */
    public static boolean valid(int field1) {
        int kind = field1 & 0xF;
        int code = (field1 >>> 4) & 0xF;
        int reg = (field1 >>> 8) & 0xF;
        return kind <= STORE && SIZE_OF_CODE[code] >= 0 && reg <= VECTOR && !(code == 0 && kind == LOAD);
    }

    /** Access kind of a valid type field. */
    public static int kind(int type) {
        return type & 0xF;
    }

    /** Bytes accessed by a valid type field. */
    public static int bytes(int type) {
        return SIZE_OF_CODE[(type >>> 4) & 0xF];
    }

    /** Register type of a valid type field. */
    public static int reg(int type) {
        return (type >>> 8) & 0xF;
    }

    /** A short name of a register type as {@code dump} prints it. */
    public static String regName(int reg) {
        switch (reg) {
            case FIXED: return "fixed";
            case FLOAT: return "float";
            case VECTOR: return "other";
            default: return "reg" + reg;
        }
    }
}
