package org.dsmscope.monitor.probe;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;
import org.dsmscope.monitor.Monitor;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.FRAG2;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.FragHeader;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.UnicastHeader3;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.NakAckHeader2;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;
import org.jgroups.util.SeqnoList;

/**
 * The transport-level probe of seed 002 §4.1.3: a protocol layer inserted just above the transport (and above
 * DISCARD / DELAY, which emulate the network) of any JGroups stack. It reads NAKACK2 (negative-acknowledgement
 * reliable multicast, like TMTP), UNICAST3 (ACK-based unicast) and FRAG2/FRAG4 headers of every packet going down
 * and of single messages and message batches coming up, and emits {@code Frag_Send/Recv}, {@code ACK_Send/Recv},
 * {@code NACK_Send/Recv}, {@code Retrans_Send} and {@code Duplicate_Frag}. It keeps the counts JGroups does not:
 * retransmission attempts per (peer, seqno), duplicates per sender, send times for round-trip times.
 *
 * <p>Threading: up and down run on many JGroups threads; per-peer state is guarded by the peer's object.
 */
public class TransportProbe extends Protocol {
    /** Protocol code of unreliable packets (no NAKACK2 / UNICAST3 header) in the {@code proto} field. */
    public static final int P_NONE = 0;
    /** Protocol code of NAKACK2 packets. */
    public static final int P_NAKACK2 = 1;
    /** Protocol code of UNICAST3 packets. */
    public static final int P_UNICAST3 = 2;

    private static final int RING = 4096;
    private static final int MASK = RING - 1;

    private final Monitor monitor;
    private final ToIntFunction<Address> peers;
    private final short nakId = ClassConfigurator.getProtocolId(NAKACK2.class);
    private final short uniId = ClassConfigurator.getProtocolId(UNICAST3.class);
    private final short frag4Id = ClassConfigurator.getProtocolId(FRAG4.class);
    private final short frag2Id = ClassConfigurator.getProtocolId(FRAG2.class);
    private final Map<Integer, Peer> state = new ConcurrentHashMap<>();
    private final Peer mcastOut = new Peer();
    private volatile int self = Integer.MIN_VALUE;

    /** Per-peer rings indexed by seqno & MASK. */
    private static final class Peer {
        final long[] sentSeq = new long[RING];
        final long[] sentTime = new long[RING];
        final int[] attempts = new int[RING];
        final long[] nackedSeq = new long[RING];
        final long[] ucastSeen = new long[RING];
        final long[] mcastSeen = new long[RING];
        short connIn = -1;
        short connOut = -1;

        Peer() {
            java.util.Arrays.fill(sentSeq, -1);
            java.util.Arrays.fill(nackedSeq, -1);
            java.util.Arrays.fill(ucastSeen, -1);
            java.util.Arrays.fill(mcastSeen, -1);
        }
    }

    /** A probe emitting into {@code monitor}, naming peers by {@link PeerIds#GLOBAL}. */
    public TransportProbe(Monitor monitor) {
        this(monitor, PeerIds.GLOBAL);
    }

    /** A probe emitting into {@code monitor}, naming peers with {@code peers}. */
    public TransportProbe(Monitor monitor, ToIntFunction<Address> peers) {
        this.monitor = monitor;
        this.peers = peers;
    }

    /** The monitor this probe emits into. */
    public Monitor monitor() {
        return monitor;
    }

    private Peer peer(int id) {
        Peer p = state.get(id);
        return p != null ? p : state.computeIfAbsent(id, k -> new Peer());
    }

    private int selfId() {
        int s = self;
        if (s == Integer.MIN_VALUE) {
            Address a = getAddress();
            if (a == null && stack != null && stack.getChannel() != null) {
                a = stack.getChannel().getAddress();
            }
            if (a == null) {
                return Integer.MIN_VALUE;
            }
            s = peers.applyAsInt(a);
            self = s;
        }
        return s;
    }

    private int fragIndex(Message msg) {
        FragHeader fh = frag4Id > 0 ? msg.getHeader(frag4Id) : null;
        if (fh == null && frag2Id > 0) {
            fh = msg.getHeader(frag2Id);
        }
        return fh == null ? -1 : fh.frag_id;
    }

    @Override
    public Object down(Message msg) {
        if (monitor.on(Level.TRANSPORT)) {
            try {
                sent(msg);
            } catch (RuntimeException ex) {
                // observing must never break the stack
            }
        }
        return down_prot.down(msg);
    }

    @Override
    public Object up(Message msg) {
        if (monitor.on(Level.TRANSPORT)) {
            received(msg, msg.getSrc());
        }
        return up_prot.up(msg);
    }

    @Override
    public void up(MessageBatch batch) {
        if (monitor.on(Level.TRANSPORT)) {
            for (Message m : batch) {
                received(m, m.getSrc() != null ? m.getSrc() : batch.sender());
            }
        }
        up_prot.up(batch);
    }

    private void sent(Message msg) {
        Address dst = msg.getDest();
        int dest = dst == null ? -1 : peers.applyAsInt(dst);
        int me = selfId();
        if (dest == me && dest != Integer.MIN_VALUE) {
            return;
        }
        long now = monitor.now();
        int bytes = msg.size();
        NakAckHeader2 nh = msg.getHeader(nakId);
        if (nh != null) {
            switch (nh.getType()) {
                case NakAckHeader2.MSG: {
                    Peer p = mcastOut;
                    long s = nh.getSeqno();
                    int k = (int) (s & MASK);
                    synchronized (p) {
                        p.sentSeq[k] = s;
                        p.sentTime[k] = now;
                        p.attempts[k] = 0;
                    }
                    monitor.emitAt(now, EventType.FRAG_SEND, -1, s, fragIndex(msg), P_NAKACK2, bytes, 0);
                    return;
                }
                case NakAckHeader2.XMIT_RSP: {
                    long s = nh.getSeqno();
                    int k = (int) (s & MASK);
                    int attempt;
                    Peer p = mcastOut;
                    synchronized (p) {
                        attempt = p.sentSeq[k] == s ? ++p.attempts[k] : 1;
                    }
                    monitor.emitAt(now, EventType.RETRANS_SEND, dest, s, fragIndex(msg), P_NAKACK2, bytes,
                            attempt * 4L + EventType.CAUSE_NACK);
                    return;
                }
                case NakAckHeader2.XMIT_REQ: {
                    long[] fm = missing(msg);
                    monitor.emitAt(now, EventType.NACK_SEND, dest, fm[0], fm[1], P_NAKACK2, bytes, 0);
                    return;
                }
                default:
                    return;
            }
        }
        UnicastHeader3 uh = msg.getHeader(uniId);
        if (uh != null) {
            Peer p = peer(dest);
            long s = uh.seqno();
            int k = (int) (s & MASK);
            switch (uh.type()) {
                case UnicastHeader3.DATA: {
                    int attempt;
                    boolean nacked;
                    synchronized (p) {
                        if (p.connOut != uh.connId()) {
                            p.connOut = uh.connId();
                            java.util.Arrays.fill(p.sentSeq, -1);
                        }
                        if (p.sentSeq[k] == s) {
                            attempt = ++p.attempts[k];
                            nacked = p.nackedSeq[k] == s;
                            p.nackedSeq[k] = -1;
                        } else {
                            p.sentSeq[k] = s;
                            p.attempts[k] = 0;
                            attempt = 0;
                            nacked = false;
                        }
                        p.sentTime[k] = now;
                    }
                    if (attempt == 0) {
                        monitor.emitAt(now, EventType.FRAG_SEND, dest, s, fragIndex(msg), P_UNICAST3, bytes, 0);
                    } else {
                        monitor.emitAt(now, EventType.RETRANS_SEND, dest, s, fragIndex(msg), P_UNICAST3, bytes,
                                attempt * 4L + (nacked ? EventType.CAUSE_NACK : EventType.CAUSE_TIMEOUT));
                    }
                    return;
                }
                case UnicastHeader3.ACK:
                    monitor.emitAt(now, EventType.ACK_SEND, dest, s, 0, P_UNICAST3, bytes, 0);
                    return;
                case UnicastHeader3.XMIT_REQ: {
                    long[] fm = missing(msg);
                    monitor.emitAt(now, EventType.NACK_SEND, dest, fm[0], fm[1], P_UNICAST3, bytes, 0);
                    return;
                }
                default:
                    return;
            }
        }
        monitor.emitAt(now, EventType.FRAG_SEND, dest, 0, fragIndex(msg), P_NONE, bytes, 0);
    }

    private void received(Message msg, Address from) {
        try {
            receivedChecked(msg, from);
        } catch (RuntimeException ex) {
            // observing must never break the stack
        }
    }

    private void receivedChecked(Message msg, Address from) {
        int src = peers.applyAsInt(from);
        int me = selfId();
        if (src == me || src < 0) {
            return;
        }
        long now = monitor.now();
        int bytes = msg.size();
        NakAckHeader2 nh = msg.getHeader(nakId);
        if (nh != null) {
            byte t = nh.getType();
            if (t == NakAckHeader2.MSG || t == NakAckHeader2.XMIT_RSP) {
                long s = nh.getSeqno();
                int k = (int) (s & MASK);
                Peer p = peer(src);
                boolean dup;
                synchronized (p) {
                    dup = p.mcastSeen[k] == s;
                    p.mcastSeen[k] = s;
                }
                int frag = fragIndex(msg);
                monitor.emitAt(now, EventType.FRAG_RECV, src, s, frag, P_NAKACK2, bytes, 0);
                if (dup) {
                    monitor.emitAt(now, EventType.DUPLICATE_FRAG, src, s, frag, P_NAKACK2, bytes, frag < 0 ? 1 : 0);
                }
            } else if (t == NakAckHeader2.XMIT_REQ) {
                long[] fm = missing(msg);
                monitor.emitAt(now, EventType.NACK_RECV, src, fm[0], fm[1], P_NAKACK2, bytes, 0);
            }
            return;
        }
        UnicastHeader3 uh = msg.getHeader(uniId);
        if (uh != null) {
            Peer p = peer(src);
            long s = uh.seqno();
            int k = (int) (s & MASK);
            switch (uh.type()) {
                case UnicastHeader3.DATA: {
                    boolean dup;
                    synchronized (p) {
                        if (p.connIn != uh.connId()) {
                            p.connIn = uh.connId();
                            java.util.Arrays.fill(p.ucastSeen, -1);
                        }
                        dup = p.ucastSeen[k] == s;
                        p.ucastSeen[k] = s;
                    }
                    int frag = fragIndex(msg);
                    monitor.emitAt(now, EventType.FRAG_RECV, src, s, frag, P_UNICAST3, bytes, 0);
                    if (dup) {
                        monitor.emitAt(now, EventType.DUPLICATE_FRAG, src, s, frag, P_UNICAST3, bytes,
                                frag < 0 ? 1 : 0);
                    }
                    return;
                }
                case UnicastHeader3.ACK: {
                    long rtt = 0;
                    synchronized (p) {
                        if (p.sentSeq[k] == s) {
                            rtt = Math.max(0, now - p.sentTime[k]);
                        }
                    }
                    monitor.emitAt(now, EventType.ACK_RECV, src, s, 0, P_UNICAST3, rtt, 0);
                    return;
                }
                case UnicastHeader3.XMIT_REQ: {
                    long[] fm = missing(msg);
                    SeqnoList l = seqnos(msg);
                    if (l != null) {
                        synchronized (p) {
                            for (long x : l) {
                                p.nackedSeq[(int) (x & MASK)] = x;
                            }
                        }
                    }
                    monitor.emitAt(now, EventType.NACK_RECV, src, fm[0], fm[1], P_UNICAST3, bytes, 0);
                    return;
                }
                default:
                    return;
            }
        }
        monitor.emitAt(now, EventType.FRAG_RECV, src, 0, fragIndex(msg), P_NONE, bytes, 0);
    }

    /** Called by {@link ObservedDiscard} when the emulated network drops a packet arriving here. */
    void discarded(Message msg) {
        if (!monitor.on(Level.TRANSPORT)) {
            return;
        }
        int src = peers.applyAsInt(msg.getSrc());
        long seq = 0;
        int proto = P_NONE;
        NakAckHeader2 nh = msg.getHeader(nakId);
        UnicastHeader3 uh = msg.getHeader(uniId);
        if (nh != null) {
            seq = nh.getSeqno();
            proto = P_NAKACK2;
        } else if (uh != null) {
            seq = uh.seqno();
            proto = P_UNICAST3;
        }
        monitor.emit(EventType.PACKET_DISCARD, src, seq, fragIndex(msg), proto, msg.size(), 0);
    }

    private static SeqnoList seqnos(Message msg) {
        try {
            Object o = msg.getObject();
            return o instanceof SeqnoList ? (SeqnoList) o : null;
        } catch (RuntimeException ex) {
            return null;
        }
    }

    private static long[] missing(Message msg) {
        SeqnoList l = seqnos(msg);
        if (l == null) {
            return new long[] {0, 0};
        }
        long first = Long.MAX_VALUE;
        int n = 0;
        for (long x : l) {
            first = Math.min(first, x);
            n++;
        }
        return new long[] {n == 0 ? 0 : first, n};
    }
}
