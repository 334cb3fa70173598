package org.dsmscope.dsm;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.TreeSet;
import org.dsmscope.monitor.event.EventType;

/**
 * Sequencers of one member (seed 002 §3.3): tickets from a migrating ticket master, with Li–Hudak style
 * probable-owner hints; the master role moves to each requester and is handed to the lowest remaining member when
 * its holder leaves normally.
 */
final class Tickets {
    private final Dsm dsm;
    private final Messenger net;
    private final int rank;
    private final DsmConfig cfg;

    Tickets(Dsm dsm, Messenger net, DsmConfig cfg) {
        this.dsm = dsm;
        this.net = net;
        this.rank = cfg.rank;
        this.cfg = cfg;
    }

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes the next ticket (0, 1, 2, ...): locally if this member is the ticket master, else from it. */
    long getTicket(Sequencer s) {
        dsm.check();
        long t0 = dsm.now();
        long blocked = 0;
        int redirects = 0;
        long ticket;
        long deadline = System.currentTimeMillis() + cfg.timeoutMillis;
        while (true) {
            int target;
            synchronized (s) {
                if (s.master) {
                    ticket = s.next++;
                    break;
                }
                target = s.hint;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new DsmException("getTicket(sequencer " + s.id + ") on m" + rank + " timed out after "
                        + cfg.timeoutMillis + " ms (" + redirects + " redirects; ticket master unreachable)");
            }
            if (target == rank || !net.ranks().contains(target)) {
                // a stale hint: ask the lowest other member, which redirects towards the master
                pause();
                synchronized (s) {
                    TreeSet<Integer> others = net.others();
                    if (!s.master && !others.isEmpty()) {
                        s.hint = others.first();
                    }
                }
                redirects++;
                continue;
            }
            Call c = net.call("getTicket(sequencer " + s.id + ")", Set.of(target), true);
            net.send(target, Messenger.TICKETREQ, s.id, ByteBuffer.allocate(8).putLong(c.id).array());
            blocked += net.await(c, s.id);
            synchronized (c) {
                Long t = c.values.get(target);
                if (t != null && c.redirect < 0) {
                    synchronized (s) {
                        s.master = true;
                        s.next = t + 1;
                    }
                    ticket = t;
                    break;
                }
                redirects++;
                if (c.redirect == -2) {
                    throw new DsmException("getTicket(sequencer " + s.id + ") on m" + rank
                            + ": the ticket master left the group without handing over its role; tickets lost");
                }
                synchronized (s) {
                    // a hint pointing back here means the role is in flight to the target: ask it again
                    if (!s.master && c.redirect >= 0 && c.redirect != rank) {
                        s.hint = c.redirect;
                    }
                }
            }
            if (redirects % 4 == 0) {
                pause();
            }
        }
        dsm.emitAt(t0, EventType.GET_TICKET, -1, s.id, ticket, redirects, dsm.now() - t0, blocked);
        return ticket;
    }

    /**
     * A ticket request from {@code from}: answer with the ticket (handing over the master role) or a hint; -2 as
     * the hint means the role was lost with a member that died holding it.
     */
    long[] ticketRequested(int id, int from) {
        Sequencer s = dsm.sequencer(id);
        synchronized (s) {
            if (s.master) {
                long t = s.next;
                s.master = false;
                s.hint = from;
                return new long[] {t, -1};
            }
            TreeSet<Integer> live = net.ranks();
            if (!live.contains(s.hint)) {
                // a member leaving normally hands the role to the lowest remaining member first
                s.hint = live.first();
                if (s.hint == rank) {
                    return new long[] {-1, -2};
                }
            }
            return new long[] {-1, s.hint};
        }
    }

    /** The master role of sequencer {@code id} handed over by a leaving member, with the next ticket. */
    void masterHandedOver(int id, long next) {
        Sequencer s = dsm.sequencer(id);
        synchronized (s) {
            s.master = true;
            s.next = Math.max(s.next, next);
        }
    }


    /** Hands every master role held here to the lowest remaining member (a normal leave). */
    void handOffMasterRoles() {
        TreeSet<Integer> others = net.others();
        if (others.isEmpty()) {
            return;
        }
        int to = others.first();
        for (Sequencer s : dsm.sequencers()) {
            long next;
            synchronized (s) {
                if (!s.master) {
                    continue;
                }
                s.master = false;
                s.hint = to;
                next = s.next;
            }
            try {
                Call c = net.call("hand over sequencer " + s.id, Set.of(to), true);
                net.send(to, Messenger.HANDOFF, s.id, ByteBuffer.allocate(16).putLong(c.id).putLong(next).array());
                net.await(c, s.id, Math.min(cfg.timeoutMillis, 5000));
            } catch (DsmException ex) {
                System.err.println("dsm m" + rank + ": " + ex.getMessage());
            }
        }
    }

}
