package org.dsmscope.dsm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class DsmSmokeTest {
    @Test
    @Timeout(30)
    void releaseConsistentWriteIsSeenAfterAdvanceAwaitGetUpdates() throws Exception {
        try (Group g = new Group(3)) {
            g.spmd(d -> {
                RandomSegment s = d.createRandom(64, Consistency.release());
                Eventcount e = d.createEvent();
                d.needUpdates(s);
                if (d.rank() == 0) {
                    s.putDouble(8, 3.5);
                    d.putUpdates(s);
                    d.advance(e);
                } else {
                    d.await(e, 1);
                    d.getUpdates(s);
                    assertEquals(3.5, s.getDouble(8));
                }
            });
        }
    }
}
