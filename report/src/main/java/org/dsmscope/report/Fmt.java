package org.dsmscope.report;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Number and text formatting for the report: deterministic (Locale.ROOT, fixed rounding), short (SVG coordinates
 * with at most one decimal), and escaped for HTML and SVG.
 */
final class Fmt {
    private Fmt() {
    }

    /** An SVG coordinate: at most one decimal, no trailing zero. */
    static String xy(double v) {
        long tenths = Math.round(v * 10);
        return tenths % 10 == 0 ? Long.toString(tenths / 10)
                : (tenths < 0 && tenths > -10 ? "-0." + (-tenths) : (tenths / 10) + "." + Math.abs(tenths % 10));
    }

    /** A number as JSON wrote it: integers plain, other values in the shortest form that reads back exactly. */
    static String raw(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** A share in percent with two decimals. */
    static String pct(double v) {
        return String.format(Locale.ROOT, "%.2f%%", v);
    }

    /** A count with thousands separators. */
    static String count(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        return String.format(Locale.ROOT, "%,.4f", v);
    }

    /** An axis tick label: short (k, M, G suffixes) with at most three significant digits. */
    static String tick(double v) {
        double a = Math.abs(v);
        String[] suffix = {"", "k", "M", "G", "T"};
        int i = 0;
        while (a >= 1000 && i < suffix.length - 1) {
            a /= 1000;
            v /= 1000;
            i++;
        }
        String s = a >= 100 || a == Math.rint(a) ? String.format(Locale.ROOT, "%.0f", v)
                : a >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s + suffix[i];
    }

    /** A size in bytes with binary units (B, KiB, MiB, GiB) when exact, else bytes. */
    static String bytes(long n) {
        if (n >= 1L << 30 && n % (1L << 30) == 0) {
            return (n >> 30) + " GiB";
        }
        if (n >= 1L << 20 && n % (1L << 20) == 0) {
            return (n >> 20) + " MiB";
        }
        if (n >= 1L << 10 && n % (1L << 10) == 0) {
            return (n >> 10) + " KiB";
        }
        return n + " B";
    }

    /** Escapes text for HTML and SVG content and attribute values. */
    static String esc(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;" : null;
            if (r != null) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                b.append(r);
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }
}
