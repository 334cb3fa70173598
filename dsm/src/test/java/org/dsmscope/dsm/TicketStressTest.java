package org.dsmscope.dsm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Tickets under packet loss with four members drawing concurrently. */
@Timeout(60)
class TicketStressTest {
    @Test
    void ticketsUnderLossAreUniqueAndDense() throws Exception {
        List<Long> all = Collections.synchronizedList(new ArrayList<>());
        try (Group g = new Group(4, c -> c.loss = 0.05)) {
            g.spmd(d -> {
                Sequencer s = d.createSequencer();
                for (int i = 0; i < 40; i++) {
                    all.add(d.getTicket(s));
                    Thread.sleep(d.rank());
                }
            });
        }
        List<Long> sorted = new ArrayList<>(all);
        Collections.sort(sorted);
        for (int i = 0; i < 160; i++) {
            assertEquals(i, sorted.get(i));
        }
    }
}
