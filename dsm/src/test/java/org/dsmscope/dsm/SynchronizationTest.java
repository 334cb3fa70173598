package org.dsmscope.dsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.dsmscope.monitor.event.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Eventcounts and sequencers (seed 002 §3.3). */
@Timeout(60)
class SynchronizationTest {

    @Test
    void advancesFromEveryMemberAddUp_andAwaitReleasesAtTheValue() throws Exception {
        try (Group g = new Group(3)) {
            g.spmd(d -> {
                Eventcount e = d.createEvent();
                for (int i = 0; i < 5; i++) {
                    d.advance(e);
                }
                d.await(e, 15);
                assertEquals(15, d.eventSync(e));
            });
        }
    }

    @Test
    void awaitWithTimeout_returnsFalseWhenTheValueIsNeverReached() throws Exception {
        try (Group g = new Group(2)) {
            Eventcount e0 = g.m(0).createEvent();
            Eventcount e1 = g.m(1).createEvent();
            assertFalse(g.m(0).awaitWithTimeout(e0, 1, 150));
            g.m(1).advance(e1);
            assertTrue(g.m(0).awaitWithTimeout(e0, 1, 5000));
        }
    }

    @Test
    void lostAdvanceIsRepairedByEventSync() throws Exception {
        try (Group g = new Group(2, c -> c.autoSyncMillis = 0)) {
            Eventcount e0 = g.m(0).createEvent();
            Eventcount e1 = g.m(1).createEvent();
            g.m(0).discard().dropDownMulticasts(1);
            g.m(0).advance(e0);
            Thread.sleep(100);
            assertEquals(0, e1.count(), "the unreliable multicast was dropped");
            assertEquals(1, g.m(1).eventSync(e1));
        }
    }

    @Test
    void awaitFailsClearlyAfterTheTimeout() throws Exception {
        try (Group g = new Group(1)) {
            g.m(0).config().timeoutMillis = 200;
            Eventcount e = g.m(0).createEvent();
            DsmException x = assertThrows(DsmException.class, () -> g.m(0).await(e, 1));
            assertTrue(x.getMessage().contains("timed out"), x.getMessage());
        }
    }

    @Test
    void ticketsAreUniqueAndDenseAcrossMembers_andTheMasterMigrates() throws Exception {
        List<Long> all = Collections.synchronizedList(new ArrayList<>());
        try (Group g = new Group(3)) {
            g.spmd(d -> {
                Sequencer s = d.createSequencer();
                for (int i = 0; i < 20; i++) {
                    all.add(d.getTicket(s));
                }
            });
            g.router.flushAll();
            int remote = g.sink.count(EventType.GET_TICKET, -1, i -> true);
            assertEquals(60, remote);
        }
        List<Long> sorted = new ArrayList<>(all);
        Collections.sort(sorted);
        for (int i = 0; i < 60; i++) {
            assertEquals(i, sorted.get(i));
        }
    }

    @Test
    void masterRoleMovesToTheRequester() throws Exception {
        try (Group g = new Group(2)) {
            Sequencer s0 = g.m(0).createSequencer();
            Sequencer s1 = g.m(1).createSequencer();
            assertTrue(s0.isMaster());
            assertEquals(0, g.m(1).getTicket(s1));
            assertTrue(s1.isMaster());
            assertFalse(s0.isMaster());
            assertEquals(1, g.m(1).getTicket(s1));
            assertEquals(2, g.m(0).getTicket(s0));
            assertTrue(s0.isMaster());
        }
    }
}
