package org.dsmscope.dsm;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.dsmscope.monitor.Monitor;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.MergeView;
import org.jgroups.Message;
import org.jgroups.View;

/**
 * The logical message layer of a member (seed 002 §4.1.2): encodes DSM messages (data, request, reply), sends them
 * through the JGroups channel, dispatches arriving ones, tracks outstanding requests and the current members.
 * Every message carries the sender's rank and a per-sender message sequence number, recorded in
 * {@code Msg_Send_Begin/End} and {@code Msg_Receive_End}, which lets the monitor pair sends with receives (clock
 * alignment, space-time arrows).
 *
 * <p>Wire layout: u8 kind, i32 sender rank, i64 message seq, i32 context (segment / eventcount / sequencer id),
 * then the kind's body.
 */
final class Messenger {
    static final int UPDATE = 1;
    static final int GETREQ = 2;
    static final int GETREP = 3;
    static final int JOIN = 4;
    static final int LEAVE = 5;
    static final int JOINACK = 6;
    static final int ADVANCE = 7;
    static final int SYNCREQ = 8;
    static final int SYNCREP = 9;
    static final int TICKETREQ = 10;
    static final int TICKET = 11;
    static final int REDIRECT = 12;
    static final int ORDER = 13;
    static final int ORDERED = 14;
    static final int HANDOFF = 15;
    static final int HANDOFFACK = 16;
    static final int ECSTATE = 17;
    static final int READY = 18;
    /** A member closing (unicast to each other member; see {@link #farewell}). */
    static final int BYE = 19;
    static final int BYEACK = 20;
    private static final int HEADER = 17;

    private final Dsm dsm;
    private final JChannel ch;
    private final Monitor mon;
    private final int rank;
    private final AtomicLong msgSeq = new AtomicLong();
    private final AtomicLong callIds = new AtomicLong();
    private final Map<Long, Call> calls = new ConcurrentHashMap<>();
    private volatile Map<Integer, Address> members = new HashMap<>();
    private volatile long viewId = -1;
    private volatile boolean started;
    private final Set<Integer> ready = new TreeSet<>();
    private int merges;

    Messenger(Dsm dsm, JChannel ch, Monitor mon) {
        this.dsm = dsm;
        this.ch = ch;
        this.mon = mon;
        this.rank = dsm.config().rank;
    }

    /** Message type (data / request / reply) of a kind. */
    static int typeOf(int kind) {
        switch (kind) {
            case UPDATE:
            case ADVANCE:
                return EventType.DATA;
            case GETREQ:
            case JOIN:
            case LEAVE:
            case SYNCREQ:
            case TICKETREQ:
            case ORDER:
            case HANDOFF:
            case ECSTATE:
            case READY:
            case BYE:
                return EventType.REQUEST;
            default:
                return EventType.REPLY;
        }
    }

    TreeSet<Integer> ranks() {
        return new TreeSet<>(members.keySet());
    }

    TreeSet<Integer> others() {
        TreeSet<Integer> s = ranks();
        s.remove(rank);
        return s;
    }

    long viewId() {
        return viewId;
    }

    /** The group has formed and the application runs: later merges are reported. */
    void started() {
        started = true;
    }

    /**
     * The start barrier: multicasts READY every 200 ms until READY has come from every other rank (every member
     * answers each READY request it gets, whether or not it waits at the barrier itself). A member's view being complete does not mean the
     * others' are: JGroups' coordinator installs a view before the joiner gets its join response, and a multicast
     * sent in that gap can be lost to the joiner for good (its join digest already counts it). After the barrier
     * every member has every other in its view, so messages between them are reliable.
     */
    boolean awaitReady(int members, long deadline) throws InterruptedException {
        if (members <= 1) {
            return true;
        }
        while (true) {
            synchronized (ready) {
                if (ready.size() >= members - 1) {
                    return true;
                }
            }
            send(-1, READY, 0, new byte[] {0});
            synchronized (ready) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return false;
                }
                if (ready.size() < members - 1) {
                    ready.wait(Math.min(left, 200));
                }
            }
        }
    }

    /** Ranks a READY has come from (for the error when the barrier is not passed). */
    TreeSet<Integer> readyFrom() {
        synchronized (ready) {
            return new TreeSet<>(ready);
        }
    }

    /** Number of merge views seen (the group forms without any, see {@link Formation}). */
    synchronized int merges() {
        return merges;
    }

    void view(View v) {
        viewId = v.getViewId().getId();
        Map<Integer, Address> m = new HashMap<>();
        for (Address a : v.getMembers()) {
            m.put(Dsm.rankOf(a), a);
        }
        Set<Integer> gone = new TreeSet<>(members.keySet());
        gone.removeAll(m.keySet());
        members = m;
        if (v instanceof MergeView) {
            synchronized (this) {
                merges++;
            }
            if (started) {
                merged((MergeView) v);
            }
        }
        if (!gone.isEmpty()) {
            for (Call c : calls.values()) {
                c.left(gone, c.waiting.size() == 1 && c.what.startsWith("getTicket")
                        || c.what.startsWith("putUpdates"));
            }
            dsm.memberLeft(gone);
        }
    }

    /**
     * After the group split and merged again (a {@link MergeView} once the application runs; the group forms
     * without merges, see {@link Formation}): messages between the subgroups sent while they were apart are lost
     * for good, so the idempotent requests still waiting for members are sent again to those members, and the
     * merge is reported once on stderr.
     */
    private void merged(MergeView v) {
        int resent = 0;
        for (Call c : calls.values()) {
            for (int r : c.resendTo()) {
                send(r, c.kind, c.ctx, c.body);
                resent++;
            }
        }
        System.err.println("dsm m" + rank + ": the group split and merged again (" + v.getSubgroups().size()
                + " subgroups, now " + ranks() + "); messages between them may be lost, " + resent
                + " requests sent again");
    }

    /**
     * Multicasts an idempotent request (copy-set change, getUpdates, eventSync) whose replies {@code c} waits
     * for; it is sent again to members that have not replied when the group merges after a split.
     */
    void request(Call c, int kind, int ctx, byte[] body) {
        c.resendable(kind, ctx, body);
        send(-1, kind, ctx, body);
    }

    Call call(String what, Set<Integer> waiting, boolean unicast) {
        Call c = new Call(callIds.incrementAndGet(), what + " on m" + rank, waiting);
        calls.put(c.id, c);
        return c;
    }

    /** Waits for a call's replies; returns the nanoseconds blocked. */
    long await(Call c, long context) {
        return await(c, context, dsm.timeout());
    }

    /** Waits up to {@code timeoutMs} for a call's replies; returns the nanoseconds blocked. */
    long await(Call c, long context, long timeoutMs) {
        long w0 = System.nanoTime();
        if (mon != null) {
            if (mon.on(Level.MESSAGE)) {
                mon.emit(EventType.MSG_RECEIVE_BEGIN, -1, context, 0, EventType.REPLY, 0, 0);
            }
            mon.blocking();
        }
        long deadline = System.currentTimeMillis() + timeoutMs;
        try {
            synchronized (c) {
                while (!c.done()) {
                    long left = deadline - System.currentTimeMillis();
                    if (left <= 0) {
                        throw new DsmException(c.what + " timed out after " + timeoutMs
                                + " ms waiting for members " + c.waiting);
                    }
                    c.wait(Math.min(left, 100));
                    if (dsm.closed()) {
                        throw new DsmException(c.what + ": member closed");
                    }
                }
                if (c.failure != null) {
                    throw new DsmException(c.failure);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DsmException(c.what + " interrupted");
        } finally {
            calls.remove(c.id);
        }
        return System.nanoTime() - w0;
    }

    private byte[] frame(int kind, long seq, int ctx, byte[] body) {
        return ByteBuffer.allocate(HEADER + body.length).put((byte) kind).putInt(rank).putLong(seq).putInt(ctx)
                .put(body).array();
    }

    /** Sends a reliable message to {@code dest} (a rank) or to all (-1). */
    void send(int dest, int kind, int ctx, byte[] body) {
        Address a = null;
        if (dest >= 0) {
            a = members.get(dest);
            if (a == null) {
                return;
            }
        }
        transmit(new BytesMessage(a), dest, kind, ctx, body);
    }

    /** Multicasts an unreliable message (eventcount updates: Message.Flag.NO_RELIABILITY). */
    void sendUnreliable(int kind, int ctx, byte[] body) {
        Message m = new BytesMessage((Address) null);
        m.setFlag(Message.Flag.NO_RELIABILITY);
        transmit(m, -1, kind, ctx, body);
    }

    private void transmit(Message m, int dest, int kind, int ctx, byte[] body) {
        long seq = msgSeq.incrementAndGet();
        byte[] buf = frame(kind, seq, ctx, body);
        m.setArray(buf);
        boolean on = mon != null && mon.on(Level.MESSAGE);
        int type = typeOf(kind);
        if (on) {
            mon.emit(EventType.MSG_SEND_BEGIN, dest, ctx, seq, type, buf.length, 0);
        }
        try {
            ch.send(m);
        } catch (Exception e) {
            if (!dsm.closed()) {
                throw new DsmException("member m" + rank + ": send failed: " + e.getMessage());
            }
        }
        if (on) {
            mon.emit(EventType.MSG_SEND_END, dest, ctx, seq, type, buf.length, 0);
        }
    }

    /**
     * Before a member closes: a BYE to every other member, each answered after every earlier unicast from this
     * member (JGroups' unicast is reliable and FIFO per pair), so the updates this member sent last have reached
     * them all, retransmissions included, before its channel goes away. Without it a member that closed right
     * after {@code putUpdates} could lose an update still being retransmitted, and a reader's {@code getUpdates},
     * which stops waiting for a member that left, would read the old value. Waits at most {@code timeoutMs}; a
     * member that leaves meanwhile is not waited for.
     */
    void farewell(long timeoutMs) {
        TreeSet<Integer> others = others();
        if (others.isEmpty()) {
            return;
        }
        Call c = call("close", others, true);
        byte[] body = ByteBuffer.allocate(8).putLong(c.id).array();
        for (int r : others) {
            send(r, BYE, 0, body);
        }
        try {
            await(c, 0, timeoutMs);
        } catch (DsmException e) {
            TreeSet<Integer> silent;
            synchronized (c) {
                silent = new TreeSet<>(c.waiting);
            }
            System.err.println("dsm m" + rank + ": closing without an answer from " + silent + " within "
                    + timeoutMs + " ms");
        }
    }

    void closing() {
        for (Call c : calls.values()) {
            synchronized (c) {
                c.notifyAll();
            }
        }
    }

    /** Handles an arriving message on a JGroups thread. */
    void receive(Message msg) {
        if (dsm.closed()) {
            return;
        }
        byte[] arr = msg.getArray();
        ByteBuffer in = ByteBuffer.wrap(arr, msg.getOffset(), msg.getLength());
        int kind = in.get();
        int src = in.getInt();
        long seq = in.getLong();
        int ctx = in.getInt();
        if (src == rank) {
            return; // our own multicast looped back
        }
        if (mon != null && mon.on(Level.MESSAGE)) {
            mon.emit(EventType.MSG_RECEIVE_END, src, ctx, seq, typeOf(kind), msg.getLength(), 0);
        }
        byte[] body = new byte[in.remaining()];
        in.get(body);
        try {
            dispatch(kind, src, ctx, body);
        } catch (RuntimeException ex) {
            if (!dsm.closed()) {
                System.err.println("dsm m" + rank + ": dropping bad message kind " + kind + " from m" + src + ": "
                        + ex);
            }
        }
    }

    private void dispatch(int kind, int src, int ctx, byte[] body) {
        ByteBuffer b = ByteBuffer.wrap(body);
        switch (kind) {
            case UPDATE:
            case JOIN:
            case LEAVE:
            case ORDER: {
                if (kind == JOIN || kind == LEAVE) {
                    send(src, JOINACK, ctx, ByteBuffer.allocate(8).putLong(b.getLong(0)).array());
                }
                Segment s = dsm.segment(ctx, kind, src, body);
                if (s != null) {
                    dispatchSegment(s, kind, src, body);
                }
                return;
            }
            case GETREQ: {
                long id = b.getLong();
                Segment s = dsm.segment(ctx);
                long n = 0;
                if (s != null) {
                    synchronized (s) {
                        n = s.sentTo.getOrDefault(src, 0L);
                    }
                }
                send(src, GETREP, ctx, ByteBuffer.allocate(16).putLong(id).putLong(n).array());
                return;
            }
            case ADVANCE:
                dsm.advanceArrived(ctx, src, b.getLong());
                return;
            case SYNCREQ: {
                long id = b.getLong();
                Map<Integer, Long> known = dsm.eventcount(ctx).known();
                ByteBuffer r = ByteBuffer.allocate(12 + 12 * known.size()).putLong(id).putInt(known.size());
                for (Map.Entry<Integer, Long> e : known.entrySet()) {
                    r.putInt(e.getKey()).putLong(e.getValue());
                }
                send(src, SYNCREP, ctx, r.array());
                return;
            }
            case SYNCREP: {
                Call c = calls.get(b.getLong());
                int n = b.getInt();
                for (int i = 0; i < n; i++) {
                    dsm.eventcount(ctx).raise(b.getInt(), b.getLong());
                }
                if (c != null) {
                    c.reply(src, 0);
                }
                return;
            }
            case READY: {
                synchronized (ready) {
                    ready.add(src);
                    ready.notifyAll();
                }
                if (b.get() == 0) {
                    send(src, READY, 0, new byte[] {1}); // answer a request: its sender learns we have it in view
                }
                return;
            }
            case ECSTATE: {
                long id = b.getLong();
                int events = b.getInt();
                for (int k = 0; k < events; k++) {
                    int ec = b.getInt();
                    int n = b.getInt();
                    for (int i = 0; i < n; i++) {
                        long c = dsm.eventcount(ec).raise(b.getInt(), b.getLong());
                        if (c >= 0) {
                            dsm.emit(EventType.COUNT_UPDATE, src, ec, c, 0, 0, 0);
                        }
                    }
                }
                send(src, HANDOFFACK, ctx, ByteBuffer.allocate(8).putLong(id).array());
                return;
            }
            case HANDOFF: {
                long id = b.getLong();
                dsm.masterHandedOver(ctx, b.getLong());
                send(src, HANDOFFACK, ctx, ByteBuffer.allocate(8).putLong(id).array());
                return;
            }
            case TICKETREQ: {
                long id = b.getLong();
                long[] r = dsm.ticketRequested(ctx, src);
                if (r[0] >= 0) {
                    send(src, TICKET, ctx, ByteBuffer.allocate(16).putLong(id).putLong(r[0]).array());
                } else {
                    send(src, REDIRECT, ctx, ByteBuffer.allocate(12).putLong(id).putInt((int) r[1]).array());
                }
                return;
            }
            case GETREP:
            case TICKET: {
                Call c = calls.get(b.getLong());
                if (c != null) {
                    c.reply(src, b.getLong());
                }
                return;
            }
            case BYE:
                // after every earlier message from src (unicast is FIFO per pair): its updates are all here
                send(src, BYEACK, ctx, ByteBuffer.allocate(8).putLong(b.getLong(0)).array());
                return;
            case BYEACK:
            case JOINACK:
            case HANDOFFACK:
            case ORDERED: {
                Call c = calls.get(b.getLong());
                if (c != null) {
                    c.reply(src, 0);
                }
                return;
            }
            case REDIRECT: {
                Call c = calls.get(b.getLong());
                if (c != null) {
                    c.redirect(src, b.getInt());
                }
                return;
            }
            default:
                throw new IllegalArgumentException("unknown message kind " + kind);
        }
    }

    /** Segment messages, possibly replayed after the segment was created here. */
    void dispatchSegment(Segment s, int kind, int src, byte[] body) {
        ByteBuffer b = ByteBuffer.wrap(body);
        switch (kind) {
            case UPDATE: {
                int writer = b.getInt();
                byte[] payload = new byte[b.remaining()];
                b.get(payload);
                dsm.updateArrived(s, writer, payload);
                return;
            }
            case JOIN:
            case LEAVE:
                dsm.copySetArrived(s, src, kind == JOIN);
                return;
            case ORDER: {
                long id = b.getLong();
                byte[] payload = new byte[b.remaining()];
                b.get(payload);
                dsm.publishOrdered(s, payload);
                if (id >= 0) {
                    send(src, ORDERED, s.id, ByteBuffer.allocate(8).putLong(id).array());
                }
                return;
            }
            default:
                throw new IllegalArgumentException("unexpected segment message kind " + kind);
        }
    }
}
