package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-place line splitter the analyses' text traces are read with. */
class AsciiLinesTest {
    /** Reads every line as "number:field|field|..." through a stream that hands out at most {@code chunk} bytes. */
    private static List<String> read(String text, int chunk) throws IOException {
        InputStream in = new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
        List<String> out = new ArrayList<>();
        try (AsciiLines l = new AsciiLines(in)) {
            while (l.next()) {
                StringBuilder b = new StringBuilder().append(l.lineNumber()).append(':');
                for (int i = 0; i < l.fields(); i++) {
                    b.append(i == 0 ? "" : "|").append(l.field(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    @Test
    void linesFieldsAndEndings() throws IOException {
        String text = "1 2  3\n\n\t4\t5 \r\nlast -1";
        for (int chunk : new int[] {1, 3, 7, 1 << 20}) {
            assertEquals(List.of("1:1|2|3", "2:", "3:4|5", "4:last|-1"), read(text, chunk), "chunk " + chunk);
        }
    }

    @Test
    void aLineLongerThanTheBuffer() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 40000; i++) {
            b.append(i % 2).append(' ');
        }
        b.append("-1\nnext\n");
        List<String> got = read(b.toString(), 5000);
        assertEquals(2, got.size());
        assertTrue(got.get(0).endsWith("|0|1|-1"));
        assertEquals("2:next", got.get(1));
    }

    @Test
    void numbers() throws IOException {
        String text = "0 -17 9223372036854775807 9223372036854775808 12a - -9223372036854775807\n";
        try (AsciiLines l = new AsciiLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)))) {
            assertTrue(l.next());
            assertEquals(0, l.number(0));
            assertEquals(-17, l.number(1));
            assertTrue(l.isNumber(2));
            assertEquals(Long.MAX_VALUE, l.number(2));
            assertFalse(l.isNumber(3), "overflows a long");
            assertFalse(l.isNumber(4));
            assertFalse(l.isNumber(5));
            assertEquals(-Long.MAX_VALUE, l.number(6));
            assertTrue(l.fieldEquals(1, "-17"));
            assertFalse(l.fieldEquals(1, "-1"));
            assertFalse(l.next());
        }
    }
}
