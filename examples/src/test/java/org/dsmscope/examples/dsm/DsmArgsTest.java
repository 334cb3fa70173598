package org.dsmscope.examples.dsm;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dsmscope.dsm.DsmApp;
import org.dsmscope.examples.UsageException;
import org.junit.jupiter.api.Test;

/**
 * The DSM examples refuse a negative, zero, huge or non-numeric size with their usage line before they touch the
 * DSM (issue 23 item 7: a negative size crashed as a negative array size).
 */
class DsmArgsTest {
    private static void refused(DsmApp app, String usage, String... args) {
        // the arguments are checked before the DSM is used: no runtime is needed to see the refusal
        UsageException e = assertThrows(UsageException.class, () -> app.run(null, args));
        assertTrue(e.getMessage().endsWith(usage), e.getMessage());
    }

    @Test
    void badSizes_areUsageErrors() {
        refused(new MatMul(), "usage: MatMul [N], 1 <= N <= 2048 (default 48)", "-5");
        refused(new MatMul(), "(default 48)", "0");
        refused(new MatMul(), "(default 48)", "x");
        refused(new MatMul(), "(default 48)", "4", "5");
        refused(new Sor(), "(default 0.8)", "-1");
        refused(new Sor(), "(default 0.8)", "64", "0");
        refused(new Sor(), "(default 0.8)", "64", "10", "NaN");
        refused(new WorkQueue(), "(default 200)", "-3");
        refused(new WorkQueue(), "(default 200)", "99999999999");
    }
}
