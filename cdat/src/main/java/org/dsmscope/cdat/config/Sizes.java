package org.dsmscope.cdat.config;

/** Sizes as the configuration file writes them: bytes with an optional K, M or G suffix (1024-based). */
final class Sizes {
    /** 1 GiB, the largest cache and page. */
    static final long GIB = 1L << 30;

    private Sizes() {
    }

    /**
     * The number of bytes {@code text} names ({@code 4096}, {@code 32K}, {@code 1m}, {@code 1G}), -1 when it is not
     * a size, or {@link Long#MAX_VALUE} when it is a size too large to be held in a long.
     */
    static long parse(String text) {
        int n = text.length();
        if (n == 0) {
            return -1;
        }
        int shift = switch (Character.toUpperCase(text.charAt(n - 1))) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            default -> 0;
        };
        int digits = shift == 0 ? n : n - 1;
        if (digits == 0) {
            return -1;
        }
        for (int i = 0; i < digits; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
        }
        String d = text.substring(0, digits).replaceFirst("^0+(?=.)", "");
        if (d.length() > 15) {
            return Long.MAX_VALUE;
        }
        long v = Long.parseLong(d);
        return v > Long.MAX_VALUE >> shift ? Long.MAX_VALUE : v << shift;
    }

    /** {@code bytes} with the largest suffix that divides it exactly (4K, 32K, 1M, 1G); 0, 100, -4096 stay numbers. */
    static String format(long bytes) {
        if (bytes > 0 && bytes % GIB == 0) {
            return bytes / GIB + "G";
        }
        if (bytes > 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "M";
        }
        if (bytes > 0 && bytes % 1024 == 0) {
            return (bytes >> 10) + "K";
        }
        return Long.toString(bytes);
    }

    /** True for 1, 2, 4, 8, … */
    static boolean powerOfTwo(long v) {
        return v > 0 && (v & (v - 1)) == 0;
    }
}
