package org.dsmscope.replay;

/**
 * Unwraps a stream of 32-bit microsecond time fields (call-record start and end times, seed 000 A.1) into 64-bit
 * values: a value more than 2^31 below the previous one is taken as a wrap of the field (SPEC §4).
 */
final class Times {
    private long last = -1;
    private long add;

    /** The unwrapped value of the next raw field. */
    long unwrap(long raw) {
        if (last >= 0 && raw < last && last - raw > 0x8000_0000L) {
            add += 0x1_0000_0000L;
        }
        last = raw;
        return raw + add;
    }
}
