package org.dsmscope.trace;

/**
 * Constants of the on-disk format: seed 000 Appendix A bit for bit, and dsmscope's documented extensions.
 *
 * <p>A classic SMAIT file is a sequence of 8-byte simple records (two 32-bit unsigned fields, big-endian) and
 * nothing else. dsmscope's <em>extended</em> variant starts with one header simple record that SMAIT never
 * produces ({@code field1 = 0x2D534D54}, the bytes {@code "-SMT"} in big-endian order) whose second field is
 * {@code major << 24 | minor << 16 | flags}. Only after such a header may the extension records appear; their
 * first fields have top hex digit 1, which SMAIT never produces (its first fields are {@code 00000RSK} memory,
 * {@code 00001xxN} call, and {@code 4/8/C…} branch records):
 *
 * <pre>
 *   10LLLLLL aaaaaaaa   instruction fetch of LLLLLL bytes (1..0xFFFF) at address aaaaaaaa
 *   11000000 hhhhhhhh   address high word: hhhhhhhh becomes bits 63..32 of every later address in the file
 *                       (memory address, fetch address, branch source and target) until the next such record;
 *                       it starts at 0. Only with {@link #FLAG_ADDR64}.
 *   12KRSSSS aaaaaaaa   wide memory access: K kind (0 load, 1 store), R register type, SSSS bytes (1..0xFFFF),
 *                       for sizes that have no size code in the type field (see {@link MemType})
 *   13000000 nnnnnnnn   end record: the file is complete; nnnnnnnn = the simple records before it, header
 *                       included, modulo 2^32. Only with {@link #FLAG_END}, and only as the last record.
 * </pre>
 *
 * With {@link #FLAG_END} a file promises its end record: one that ends without it was cut short (a full disk, a
 * killed writer) and is refused; a file without the flag (classic SMAIT, older extended files) cannot be verified
 * complete unless its records say so themselves (start_trace ... end_trace, as the agent writes).
 *
 * A headerless file is read as classic 32-bit SMAIT, where extension tags are unknown tags. The byte order of a
 * file with a header is known from the header (its magic reads {@code 0x544D532D} in the wrong order); a
 * headerless file is big-endian unless it is detected with certainty as little-endian: its first record, read
 * little-endian, is a complete call record and, read big-endian, is not a valid record; or its first records (at
 * least 64, up to 4096) are all valid read little-endian, include memory or call records, and read big-endian
 * include not one memory or call record (a little-endian memory record misread big-endian looks like a branch).
 */
public final class SmaitFormat {
    /** Size of one simple record in bytes. */
    public static final int SIMPLE = 8;
    /** Simple records in a call record. */
    public static final int CALL_PARTS = 6;
    /** Bytes of a call record. */
    public static final int CALL_BYTES = SIMPLE * CALL_PARTS;
    /** First field of the extended-format header. */
    public static final int HEADER_MAGIC = 0x2D534D54;
    /** Format major version written in the header. */
    public static final int VERSION_MAJOR = 1;
    /** Format minor version written in the header. */
    public static final int VERSION_MINOR = 0;
    /** Header flag: the file may hold address-high records (addresses beyond 32 bits). */
    public static final int FLAG_ADDR64 = 0x1;
    /** Header flag: the file ends with an end record ({@link #TAG_END}), so a cut-short file is recognized. */
    public static final int FLAG_END = 0x2;
    /** Extension tag: end record; second field = simple records before it (header included) modulo 2^32. */
    public static final int TAG_END = 0x13000000;
    /** Extension tag: instruction fetch; low 24 bits = length in bytes. */
    public static final int TAG_FETCH = 0x10000000;
    /** Extension tag: address high word. */
    public static final int TAG_ADDR_HI = 0x11000000;
    /** Extension tag: wide memory access; low 24 bits = kind&lt;&lt;20 | reg&lt;&lt;16 | size. */
    public static final int TAG_WIDE_MEM = 0x12000000;
    /** Largest code address a branch record's first field can hold (28 bits). */
    public static final long BRANCH_FIELD_MASK = 0x0FFFFFFFL;

    private SmaitFormat() {
    }

    /** The header's second field for the given flags. */
    public static int headerWord(int flags) {
        return (VERSION_MAJOR << 24) | (VERSION_MINOR << 16) | (flags & 0xFFFF);
    }

    /** First field of call record part {@code part} of type {@code type}. */
    public static int callTag(int type, int part) {
        return 0x00001000 | (type << 4) | part;
    }
}
