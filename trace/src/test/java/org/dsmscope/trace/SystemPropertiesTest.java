package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reader of {@code -Ddsmscope.*} properties: absent gives the default, good values work, bad ones name themselves. */
class SystemPropertiesTest {
    private static final String NAME = "dsmscope.test.property";

    @AfterEach
    void clear() {
        System.clearProperty(NAME);
    }

    /** The message for {@code value}, which must be refused by {@code read}. */
    private static String refused(String value, Runnable read) {
        System.setProperty(NAME, value);
        String msg = assertThrows(BadInputException.class, read::run).getMessage();
        assertTrue(msg.startsWith("-D" + NAME + "=" + value + ": "), msg);
        assertFalse(msg.contains("\n"), msg);
        return msg;
    }

    @Test
    void anAbsentOrBlankProperty_givesTheDefault() {
        assertEquals(7, SystemProperties.intValue(NAME, 7, 1, 10));
        assertEquals(-3L, SystemProperties.longValue(NAME, -3, 0, 5));
        assertTrue(SystemProperties.booleanValue(NAME, true));
        assertEquals("routed", SystemProperties.choice(NAME, "routed", "routed", "replays"));
        System.setProperty(NAME, "  ");
        assertEquals(7, SystemProperties.intValue(NAME, 7, 1, 10));
        assertFalse(SystemProperties.booleanValue(NAME, false));
    }

    @Test
    void goodValues_work() {
        System.setProperty(NAME, " 16 ");
        assertEquals(16, SystemProperties.intValue(NAME, 1, 1, 1024));
        System.setProperty(NAME, "16_777_216");
        assertEquals(16L << 20, SystemProperties.longValue(NAME, 8, 8, Long.MAX_VALUE));
        System.setProperty(NAME, "0");
        assertEquals(0, SystemProperties.intValue(NAME, 2, 0, Integer.MAX_VALUE));
        System.setProperty(NAME, "TRUE");
        assertTrue(SystemProperties.booleanValue(NAME, false));
        System.setProperty(NAME, "false");
        assertFalse(SystemProperties.booleanValue(NAME, true));
        System.setProperty(NAME, "replays");
        assertEquals("replays", SystemProperties.choice(NAME, "routed", "routed", "replays"));
    }

    @Test
    void malformedValues_areRefused_namingThePropertyTheValueAndWhatIsAllowed() {
        assertEquals("-D" + NAME + "=abc: not a whole number (from 1 to 1024)",
                refused("abc", () -> SystemProperties.intValue(NAME, 1, 1, 1024)));
        assertEquals("-D" + NAME + "=1.5: not a whole number (at least 8)",
                refused("1.5", () -> SystemProperties.longValue(NAME, 8, 8, Long.MAX_VALUE)));
        assertEquals("-D" + NAME + "=yes: neither true nor false",
                refused("yes", () -> SystemProperties.booleanValue(NAME, false)));
        assertEquals("-D" + NAME + "=replay: not one of routed, replays",
                refused("replay", () -> SystemProperties.choice(NAME, "routed", "routed", "replays")));
    }

    @Test
    void outOfRangeValues_areRefused() {
        assertEquals("-D" + NAME + "=0: out of range (at least 1)",
                refused("0", () -> SystemProperties.intValue(NAME, 4, 1, Integer.MAX_VALUE)));
        assertEquals("-D" + NAME + "=4: out of range (at least 8)",
                refused("4", () -> SystemProperties.longValue(NAME, 8, 8, Long.MAX_VALUE)));
        assertEquals("-D" + NAME + "=-1: out of range (from 0 to 10)",
                refused("-1", () -> SystemProperties.intValue(NAME, 4, 0, 10)));
        refused("99999999999", () -> SystemProperties.intValue(NAME, 4, 0, Integer.MAX_VALUE));
    }
}
