package org.dsmscope.trace.sidecar;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.dsmscope.trace.BadInputException;

/** Shared text chores of the sidecar formats: tab-separated fields, hex addresses, line-numbered errors. */
final class SidecarText {
    private final String file;
    private final BufferedReader in;
    private long lineNo;
    private String[] fields;

    private SidecarText(String file, BufferedReader in) {
        this.file = file;
        this.in = in;
    }

    /** Opens {@code f} and checks its first line is {@code "FORMAT VERSION"} with a known major version. */
    static SidecarText open(Path f, String format, int version) throws IOException {
        BufferedReader r;
        org.dsmscope.trace.InputFile.check(f, null, format + " file", true);
        try {
            r = Files.newBufferedReader(f, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BadInputException(f + ": no such " + format + " file");
        } catch (AccessDeniedException e) {
            throw new BadInputException(f + ": " + format + " file is not readable (permission denied)");
        }
        SidecarText t = new SidecarText(f.toString(), r);
        String first = r.readLine();
        t.lineNo = 1;
        if (first == null) {
            r.close();
            throw t.error("empty file (expected '" + format + " " + version + "')");
        }
        String[] h = first.strip().split(" ");
        if (h.length != 2 || !h[0].equals(format)) {
            r.close();
            throw t.error("not a " + format + " file (first line '" + abbreviate(first) + "')");
        }
        int v;
        try {
            v = Integer.parseInt(h[1]);
        } catch (NumberFormatException e) {
            v = -1;
        }
        if (v != version) {
            r.close();
            throw t.error("unsupported " + format + " version '" + h[1] + "' (this reader knows " + version + ")");
        }
        return t;
    }

    /** Advances to the next non-blank, non-comment line; false at the end. */
    boolean next() throws IOException {
        for (;;) {
            String l = in.readLine();
            if (l == null) {
                in.close();
                return false;
            }
            lineNo++;
            if (l.isBlank() || l.startsWith("#")) {
                continue;
            }
            fields = l.split("\t", -1);
            return true;
        }
    }

    String keyword() {
        return fields[0];
    }

    /** Requires exactly {@code n} fields after the keyword. */
    void expect(int n, String shape) {
        if (fields.length != n + 1) {
            throw error("'" + fields[0] + "' needs " + n + " tab-separated fields: " + shape);
        }
    }

    /** Field {@code i} as it is (required, '-' not allowed to mean "none"). */
    String fields(int i) {
        if (fields[i].isEmpty() || fields[i].equals("-")) {
            throw error("field " + i + " must not be empty");
        }
        return fields[i];
    }

    String text(int i) {
        return fields[i].equals("-") ? null : fields[i];
    }

    long hex(int i) {
        String s = fields[i];
        if (!s.startsWith("0x") || s.length() < 3 || s.length() > 18) {
            throw error("field " + i + " '" + abbreviate(s) + "' is not a hex address (0x...)");
        }
        try {
            return Long.parseUnsignedLong(s.substring(2), 16);
        } catch (NumberFormatException e) {
            throw error("field " + i + " '" + abbreviate(s) + "' is not a hex address (0x...)");
        }
    }

    int dec(int i) {
        try {
            int v = Integer.parseInt(fields[i]);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw error("field " + i + " '" + abbreviate(fields[i]) + "' is not a non-negative decimal number");
        }
    }

    BadInputException error(String what) {
        return new BadInputException(file + ": line " + lineNo + ": " + what);
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    /** Checks a string field for writing: no tab or line break; null or empty → "-". */
    static String field(String s) {
        if (s == null || s.isEmpty()) {
            return "-";
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\t' || c == '\n' || c == '\r') {
                throw new IllegalArgumentException("sidecar field contains a tab or line break: " + s);
            }
        }
        return s;
    }

    static String hexOut(long v) {
        return "0x" + Long.toHexString(v);
    }
}
