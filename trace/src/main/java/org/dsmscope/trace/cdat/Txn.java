package org.dsmscope.trace.cdat;

/**
 * The transactions of seed 000 Appendix C, with their codes and names (SPEC §6: {@code recall_shar}, 31, is the
 * recall for {@code read_shar}). The tens digit of a code is its class; the class fixes the order of the fields after
 * {@code clock addr code} in the detailed trace: the sender first, then the receiver, each as (processor, node) or
 * (bank, home node).
 */
public final class Txn {
    /** Processor request: instruction fetch miss. */
    public static final int READ_SHAR = 1;
    /** Processor request: load miss. */
    public static final int READ_SHAR_OR_PRIV = 2;
    /** Processor request: store miss. */
    public static final int READ_PRIV_OWN = 3;
    /** Processor request: store hit on a shared line. */
    public static final int REQ_INV = 4;
    /** Processor request (I/O processor): read the current copy without joining the sharing list. */
    public static final int READ_CURRENT = 5;
    /** Processor request (I/O processor): update a memory line, invalidating cached copies. */
    public static final int WRITE_PURGE = 6;
    /** Memory response: shared copy. */
    public static final int DATA_SHAR = 11;
    /** Memory response: private copy. */
    public static final int DATA_PRIV = 12;
    /** Memory response: private ownership granted. */
    public static final int ALLOC_DONE = 13;
    /** Memory response: {@code write_purge} completed. */
    public static final int WRITE_PURGE_DONE = 14;
    /** Processor return: dirty line replaced. */
    public static final int WRITE_BACK = 21;
    /** Processor return: answer to a snoop hit on a dirty line (not in the general trace). */
    public static final int UPDATE_DATA = 22;
    /** Processor return: clean private (exclusive) line relinquished. */
    public static final int UPDATE_TAG = 23;
    /** Memory recall for {@code read_shar}. */
    public static final int RECALL_SHAR = 31;
    /** Memory recall for {@code read_shar_or_priv}. */
    public static final int RECALL_SHAR_OR_PRIV = 32;
    /** Memory recall for {@code read_priv_own}. */
    public static final int RECALL_PRIV_OWN = 33;
    /** Memory recall: invalidate a copy for {@code req_inv} (and for {@code read_priv_own}, {@code write_purge}). */
    public static final int INV = 34;
    /** Cache-to-cache: shared copy, data forwarded to home. */
    public static final int C2C_DATA_SHAR = 41;
    /** Cache-to-cache: private copy, data forwarded to home. */
    public static final int C2C_DATA_PRIV = 42;
    /** Cache-to-cache: private copy, no data forwarded. */
    public static final int C2C_DATA_PRIV_OWN = 43;
    /** Recall response: after {@code c2c_data_shar} or {@code c2c_data_priv}. */
    public static final int RECALL_C2C_DATA = 51;
    /** Recall response: after {@code c2c_data_priv_own}. */
    public static final int RECALL_C2C_DONE = 52;
    /** Recall response to {@code inv}. */
    public static final int INV_DONE = 53;
    /** Recall response: negative acknowledgment, the line is not dirty. */
    public static final int RECALL_NACK_SHAR = 54;
    /** Recall response: negative acknowledgment, the line is not there. */
    public static final int RECALL_NACK_INV = 55;
    /** Recall response: the dirty line returned to memory. */
    public static final int RECALL_DATA = 56;
    /** General trace status record: the processor starts being active. */
    public static final int START_ACTIVE = 91;
    /** General trace status record: the processor starts being idle. */
    public static final int START_IDLE = 92;

    /** Every transaction code, in increasing order (status records excluded). */
    public static final int[] CODES = {1, 2, 3, 4, 5, 6, 11, 12, 13, 14, 21, 22, 23, 31, 32, 33, 34, 41, 42, 43, 51,
        52, 53, 54, 55, 56};

    private static final String[] NAMES = new String[93];

    static {
        String[] n = {"", "read_shar", "read_shar_or_priv", "read_priv_own", "req_inv", "read_current",
            "write_purge"};
        System.arraycopy(n, 1, NAMES, 1, 6);
        NAMES[11] = "data_shar";
        NAMES[12] = "data_priv";
        NAMES[13] = "alloc_done";
        NAMES[14] = "write_purge_done";
        NAMES[21] = "write_back";
        NAMES[22] = "update_data";
        NAMES[23] = "update_tag";
        NAMES[31] = "recall_shar";
        NAMES[32] = "recall_shar_or_priv";
        NAMES[33] = "recall_priv_own";
        NAMES[34] = "inv";
        NAMES[41] = "c2c_data_shar";
        NAMES[42] = "c2c_data_priv";
        NAMES[43] = "c2c_data_priv_own";
        NAMES[51] = "recall_c2c_data";
        NAMES[52] = "recall_c2c_done";
        NAMES[53] = "inv_done";
        NAMES[54] = "recall_nack_shar";
        NAMES[55] = "recall_nack_inv";
        NAMES[56] = "recall_data";
        NAMES[91] = "start_active";
        NAMES[92] = "start_idle";
    }

    private Txn() {
    }

    /** True if {@code code} is a transaction or status code of Appendix C. */
    public static boolean valid(int code) {
        return code > 0 && code < NAMES.length && NAMES[code] != null;
    }

    /** The Appendix C name of {@code code}. */
    public static String name(int code) {
        if (!valid(code)) {
            throw new IllegalArgumentException("no transaction code " + code);
        }
        return NAMES[code];
    }

    /** True for processor requests (0x) and returns (2x): the records of the general trace (22 excepted). */
    public static boolean inGeneralTrace(int code) {
        return code >= 1 && code <= 6 || code == WRITE_BACK || code == UPDATE_TAG;
    }

    /**
     * True if a detailed record of {@code code} names the memory (bank, home node) first and the processor second
     * (memory responses 1x and recalls 3x); false if the processor comes first.
     */
    public static boolean fromMemory(int code) {
        int c = code / 10;
        return c == 1 || c == 3;
    }

    /** True if a detailed record of {@code code} names two processors (cache-to-cache transfers 4x). */
    public static boolean processorToProcessor(int code) {
        return code / 10 == 4;
    }
}
