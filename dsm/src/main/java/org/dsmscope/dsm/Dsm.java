package org.dsmscope.dsm;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.dsmscope.monitor.Monitor;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;
import org.dsmscope.monitor.probe.PeerIds;
import org.dsmscope.monitor.probe.TransportProbe;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.DISCARD;
import org.jgroups.stack.Protocol;

/**
 * One member of the DSM runtime modelled on Unify (seed 002 §3): segments from one global address space with
 * their types and consistency models, copy sets, eventcounts whose updates travel by unreliable multicast, and
 * sequencers from a migrating ticket master, over JGroups. Every operation is instrumented at the programming
 * model and logical message levels (§4.1.1, §4.1.2); the transport level comes from the probe in the stack.
 *
 * <p>Members are SPMD: they create segments, eventcounts and sequencers in the same order, so ids and base
 * addresses agree without messages. The application thread calls the operations; JGroups threads deliver
 * messages ({@link #receive}), which only record, reply and wake waiters, never block.
 */
public final class Dsm implements AutoCloseable {
    private final DsmConfig cfg;
    private final int rank;
    private final JChannel ch;
    private final Monitor mon;
    private final TransportProbe probe;
    private final DISCARD discard;
    private final Messenger net;
    private final Tickets tickets;
    private final Map<Integer, Segment> segs = new ConcurrentHashMap<>();
    private final Map<Integer, List<Object[]>> early = new HashMap<>();
    private final Object segLock = new Object();
    private final Map<Integer, Eventcount> ecs = new ConcurrentHashMap<>();
    private final Map<Integer, Sequencer> seqrs = new ConcurrentHashMap<>();
    private final AtomicLong reqIds = new AtomicLong();
    private final ScheduledExecutorService timer;
    private int nextSeg;
    private int nextEc;
    private int nextSeqr;
    private long nextBase = 0x1000_0000L;
    private volatile boolean closed;

    private Dsm(DsmConfig cfg) throws Exception {
        this.cfg = cfg;
        this.rank = cfg.rank;
        this.mon = cfg.router == null ? null : cfg.router.monitor(rank, "m" + rank, cfg.skewNanos);
        Protocol[] out = new Protocol[2];
        List<Protocol> stack = Stacks.build(cfg, mon, out);
        this.probe = (TransportProbe) out[0];
        this.discard = (DISCARD) out[1];
        this.ch = new JChannel(stack.toArray(new Protocol[0]));
        ch.name("m" + rank);
        ch.addAddressGenerator(() -> PeerIds.address("m" + cfg.rank, cfg.rank));
        this.net = new Messenger(this, ch, mon);
        this.tickets = new Tickets(this, net, cfg);
        ch.setReceiver(new Receiver() {
            @Override
            public void receive(Message msg) {
                net.receive(msg);
            }

            @Override
            public void viewAccepted(View v) {
                net.view(v);
            }
        });
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dsm-eventual-m" + cfg.rank);
            t.setDaemon(true);
            return t;
        });
    }

    /** Joins the group and waits until {@code cfg.members} members are present. */
    public static Dsm join(DsmConfig cfg) throws Exception {
        Dsm d = start(cfg);
        d.awaitMembers();
        return d;
    }

    /**
     * Joins the group without waiting for the others (several members started from one thread). With file
     * discovery (separate JVMs), member 0 creates the group and the others connect only once it has: members that
     * start at the same moment would otherwise each find no one, create a group of their own and be merged later
     * (see {@link Formation}).
     */
    public static Dsm start(DsmConfig cfg) throws Exception {
        if (cfg.discoveryDir != null && cfg.rank != 0) {
            Formation.awaitCreator(cfg);
        }
        Dsm d = new Dsm(cfg);
        if (d.mon != null) {
            d.mon.emit(EventType.PROC_START, -1, 0, 0, 0, 0, 0);
        }
        d.ch.connect(cfg.cluster);
        if (cfg.discoveryDir != null && cfg.rank == 0) {
            Formation.announceCreated(cfg);
        }
        return d;
    }

    /** Waits until {@code members} members are in the group, then switches on the configured packet loss. */
    public void awaitMembers() throws InterruptedException {
        waitForMembers();
        // loss applies to the program's traffic, not to forming the group (lost discovery splits the group)
        discard.setUpDiscardRate(cfg.loss);
    }

    private void waitForMembers() throws InterruptedException {
        Formation f = new Formation(cfg.members, 300);
        long deadline = System.currentTimeMillis() + cfg.timeoutMillis;
        while (!f.formed(net.ranks(), net.viewId(), System.currentTimeMillis())) {
            if (System.currentTimeMillis() > deadline) {
                ch.close();
                throw new DsmException("member m" + cfg.rank + ": " + f.missing(net.ranks()) + " within "
                        + cfg.timeoutMillis + " ms (group now " + net.ranks() + ")");
            }
            Thread.sleep(10);
        }
        if (!net.awaitReady(cfg.members, deadline)) {
            ch.close();
            throw new DsmException("member m" + cfg.rank + ": the group of " + cfg.members + " formed here but only "
                    + net.readyFrom() + " confirmed it within " + cfg.timeoutMillis + " ms");
        }
        net.started();
    }

    /** This member's rank. */
    public int rank() {
        return rank;
    }

    /** Number of members the group was started with. */
    public int members() {
        return cfg.members;
    }

    /** Ranks of the members currently in the group. */
    public TreeSet<Integer> ranks() {
        return net.ranks();
    }

    /** Number of JGroups merge views this member has seen (a split group merged again). */
    public int mergeViews() {
        return net.merges();
    }

    /** This member's monitor, or null when unmonitored. */
    public Monitor monitor() {
        return mon;
    }

    /** The transport probe in this member's stack, or null. */
    public TransportProbe probe() {
        return probe;
    }

    /** JGroups' DISCARD layer of this member (loss emulation; tests drop packets with it). */
    public DISCARD discard() {
        return discard;
    }

    DsmConfig config() {
        return cfg;
    }

    long timeout() {
        return cfg.timeoutMillis;
    }

    void emit(EventType t, int peer, long a, long b, long c, long d, long e) {
        if (mon != null) {
            mon.emit(t, peer, a, b, c, d, e);
        }
    }

    void emitAt(long time, EventType t, int peer, long a, long b, long c, long d, long e) {
        if (mon != null) {
            mon.emitAt(time, t, peer, a, b, c, d, e);
        }
    }

    long now() {
        return mon != null ? mon.now() : System.nanoTime();
    }

    boolean on(Level l) {
        return mon != null && mon.on(l);
    }

    void check() {
        if (closed) {
            throw new DsmException("member m" + rank + " is closed");
        }
    }

    // ---------------------------------------------------------------- segments (§3.1, §3.2)

    /** Allocates a random-access segment of {@code size} bytes. */
    public RandomSegment createRandom(int size, Consistency c) {
        long t0 = now();
        RandomSegment s;
        synchronized (this) {
            s = new RandomSegment(this, nextSeg++, c, nextBase, size, 0);
            nextBase += (size + 4095L) & ~4095L;
        }
        created(s, t0);
        return s;
    }

    /** Allocates a sequential-access segment. */
    public SequentialSegment createSequential(Consistency c) {
        long t0 = now();
        SequentialSegment s;
        synchronized (this) {
            s = new SequentialSegment(nextSeg++, c, nextBase, 0);
            nextBase += 1 << 20;
        }
        created(s, t0);
        return s;
    }

    /** Allocates an associative segment. */
    public AssociativeSegment createAssociative(Consistency c) {
        long t0 = now();
        AssociativeSegment s;
        synchronized (this) {
            s = new AssociativeSegment(nextSeg++, c, nextBase, 0);
            nextBase += 1 << 20;
        }
        created(s, t0);
        return s;
    }

    private void created(Segment s, long t0) {
        check();
        synchronized (segLock) {
            segs.put(s.id, s);
            List<Object[]> l = early.remove(s.id);
            if (l != null) {
                for (Object[] m : l) {
                    net.dispatchSegment(s, (Integer) m[0], (Integer) m[1], (byte[]) m[2]);
                }
            }
        }
        emitAt(t0, EventType.CREATE_SEG, -1, s.id, s.base, s.size, now() - t0,
                s.type.ordinal() * 16L + s.consistency.code());
        if (s.consistency.temporal == Consistency.Temporal.EVENTUAL) {
            long half = Math.max(1, s.consistency.lagMillis / 2);
            timer.scheduleAtFixedRate(() -> propagate(s), half, half, TimeUnit.MILLISECONDS);
        }
    }

    /** The segment with this id, or null if this member has not created it (yet); buffers its messages. */
    Segment segment(int id, int kind, int src, byte[] body) {
        synchronized (segLock) {
            Segment s = segs.get(id);
            if (s == null) {
                early.computeIfAbsent(id, k -> new ArrayList<>()).add(new Object[] {kind, src, body});
            }
            return s;
        }
    }

    /** Segment lookup without buffering. */
    Segment segment(int id) {
        return segs.get(id);
    }

    /** Called by a random segment at its first write since its last consistency point. */
    void firstWrite(Segment s) {
        // a write while updates from another writer wait to be applied: concurrent writers (false sharing)
        for (Object[] p : s.pending) {
            int w = (Integer) p[0];
            if (s.sharingWith.add(w)) {
                emit(EventType.FALSE_SHARING_BEGIN, w, s.id, 0, 0, 0, 0);
            }
        }
    }

    /** Sends this member's changes of {@code s} to its copy set (release consistency: a release point). */
    public void putUpdates(Segment s) {
        check();
        long t0 = now();
        long blocked = 0;
        byte[] local = s.takeLocal();
        synchronized (s) {
            s.sharingWith.clear();
        }
        if (local != null) {
            if (s.ordered() && rank != s.owner) {
                Call c = net.call("putUpdates(seg " + s.id + ")", Set.of(s.owner), true);
                net.send(s.owner, Messenger.ORDER, s.id, ByteBuffer.allocate(8 + local.length).putLong(c.id)
                        .put(local).array());
                blocked = net.await(c, s.id);
            } else {
                publishOrdered(s, local);
            }
        }
        long seq;
        synchronized (s) {
            seq = s.putSeq;
        }
        emitAt(t0, EventType.PUT_UPDATES, -1, s.id, seq, Segment.len(local), now() - t0, blocked);
    }

    /**
     * Publishes a local update; for an ordered segment (here, at its owner) first orders it, with ordering and
     * sending in one step ({@link Segment#orderLock}): the copy set applies updates in the order they were sent, so
     * they must leave in the order the owner applied them. Before, the application thread's own update and a
     * member's update ordered by a message thread at the same moment could leave in the other order, and the last
     * put of a key differed between the owner and the rest.
     */
    void publishOrdered(Segment s, byte[] update) {
        if (!s.ordered()) {
            publish(s, update);
            return;
        }
        synchronized (s.orderLock) {
            publish(s, s.order(update));
        }
    }

    /** Sends a published update to every copy-set member but this one. */
    void publish(Segment s, byte[] payload) {
        List<Integer> targets = new ArrayList<>();
        synchronized (s) {
            s.putSeq++;
            for (int t : s.copySet) {
                if (t != rank && net.ranks().contains(t)) {
                    targets.add(t);
                    s.sentTo.merge(t, 1L, Long::sum);
                }
            }
        }
        byte[] body = ByteBuffer.allocate(4 + payload.length).putInt(rank).put(payload).array();
        for (int t : targets) {
            net.send(t, Messenger.UPDATE, s.id, body);
        }
    }

    private void propagate(Segment s) {
        if (closed) {
            return;
        }
        try {
            byte[] local = s.takeLocal();
            if (local == null) {
                return;
            }
            if (s.ordered() && rank != s.owner) {
                net.send(s.owner, Messenger.ORDER, s.id, ByteBuffer.allocate(8 + local.length).putLong(-1)
                        .put(local).array());
            } else {
                publishOrdered(s, local);
            }
        } catch (RuntimeException ex) {
            // the member is closing; eventual propagation stops with it
        }
    }

    /** An update arrived from {@code writer} (called by the messenger). */
    void updateArrived(Segment s, int writer, byte[] payload) {
        boolean eventual = s.consistency.temporal == Consistency.Temporal.EVENTUAL;
        synchronized (s) {
            s.recvFrom.merge(writer, 1L, Long::sum);
            if (s.dirty() && s.type == SegmentType.RANDOM && s.sharingWith.add(writer)) {
                emit(EventType.FALSE_SHARING_BEGIN, writer, s.id, 0, 0, 0, 0);
            }
            if (eventual) {
                applyOne(s, writer, payload);
            } else {
                s.pending.add(new Object[] {writer, payload});
            }
            s.notifyAll();
        }
    }

    private void applyOne(Segment s, int writer, byte[] payload) {
        long[] m = s.apply(writer, payload);
        s.applied++;
        if (m != null) {
            emit(EventType.FALSE_SHARING_MERGE, writer, s.id, m[0], m[1], 0, 0);
        }
    }

    /** Brings this member's copy of {@code s} up to date with every update released before (acquire point). */
    public void getUpdates(Segment s) {
        check();
        long t0 = now();
        long blocked = 0;
        TreeSet<Integer> others = net.others();
        Map<Integer, Long> need = new HashMap<>();
        if (!others.isEmpty()) {
            Call c = net.call("getUpdates(seg " + s.id + ")", others, false);
            net.request(c, Messenger.GETREQ, s.id, ByteBuffer.allocate(8).putLong(c.id).array());
            blocked += net.await(c, s.id);
            synchronized (c) {
                need.putAll(c.values);
            }
        }
        int applied = 0;
        synchronized (s) {
            long deadline = System.currentTimeMillis() + cfg.timeoutMillis;
            long w0 = System.nanoTime();
            for (Map.Entry<Integer, Long> e : need.entrySet()) {
                while (s.recvFrom.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                    long left = deadline - System.currentTimeMillis();
                    if (left <= 0 || !net.ranks().contains(e.getKey())) {
                        if (!net.ranks().contains(e.getKey())) {
                            break;
                        }
                        throw new DsmException("getUpdates(seg " + s.id + ") on m" + rank + " timed out after "
                                + cfg.timeoutMillis + " ms waiting for updates from m" + e.getKey());
                    }
                    try {
                        s.wait(Math.min(left, 50));
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                        throw new DsmException("getUpdates interrupted");
                    }
                }
            }
            blocked += System.nanoTime() - w0;
            while (!s.pending.isEmpty()) {
                Object[] p = s.pending.poll();
                applyOne(s, (Integer) p[0], (byte[]) p[1]);
                applied++;
            }
        }
        long seq;
        synchronized (s) {
            seq = s.applied;
        }
        emitAt(t0, EventType.GET_UPDATES, -1, s.id, seq, applied, now() - t0, blocked);
    }

    /** Joins the copy set of {@code s}: this member receives every update put after this call returns. */
    public void needUpdates(Segment s) {
        copySetChange(s, true);
    }

    /** Leaves the copy set of {@code s}: no further updates are sent here. */
    public void dontNeedUpdates(Segment s) {
        copySetChange(s, false);
    }

    private void copySetChange(Segment s, boolean join) {
        check();
        long t0 = now();
        synchronized (s) {
            if (join) {
                s.copySet.add(rank);
            } else {
                s.copySet.remove(rank);
                s.pending.clear();
            }
            s.copySetSeq++;
        }
        long blocked = 0;
        TreeSet<Integer> others = net.others();
        if (!others.isEmpty()) {
            Call c = net.call((join ? "needUpdates" : "dontNeedUpdates") + "(seg " + s.id + ")", others, false);
            net.request(c, join ? Messenger.JOIN : Messenger.LEAVE, s.id,
                    ByteBuffer.allocate(8).putLong(c.id).array());
            blocked = net.await(c, s.id);
        }
        long seq;
        int size;
        synchronized (s) {
            seq = s.copySetSeq;
            size = s.copySet.size();
        }
        emitAt(t0, join ? EventType.NEED_UPDATES : EventType.DONT_NEED_UPDATES, -1, s.id, seq, size, now() - t0,
                blocked);
    }

    /** A copy-set change announced by {@code member}. */
    void copySetArrived(Segment s, int member, boolean join) {
        synchronized (s) {
            if (join) {
                s.copySet.add(member);
            } else {
                s.copySet.remove(member);
            }
            s.copySetSeq++;
        }
    }

    /** A member left: drop it from every copy set. */
    void memberLeft(Set<Integer> gone) {
        for (Segment s : segs.values()) {
            synchronized (s) {
                s.copySet.removeAll(gone);
                s.notifyAll();
            }
        }
        for (Eventcount e : ecs.values()) {
            synchronized (e) {
                e.notifyAll();
            }
        }
    }

    // ---------------------------------------------------------------- eventcounts and sequencers (§3.3)

    /** Allocates an eventcount (count 0). */
    public Eventcount createEvent() {
        check();
        long t0 = now();
        int id;
        synchronized (this) {
            id = nextEc++;
        }
        Eventcount e = eventcount(id);
        emitAt(t0, EventType.CREATE_EVENT, -1, id, 0, 0, now() - t0, 0);
        return e;
    }

    Eventcount eventcount(int id) {
        return ecs.computeIfAbsent(id, Eventcount::new);
    }

    /** Advances an eventcount by one; the update is multicast unreliably. Returns the local count after. */
    public long advance(Eventcount e) {
        check();
        long t0 = now();
        long mine;
        long count;
        synchronized (e) {
            mine = e.of(rank) + 1;
            count = e.raise(rank, mine);
        }
        net.sendUnreliable(Messenger.ADVANCE, e.id, ByteBuffer.allocate(8).putLong(mine).array());
        emitAt(t0, EventType.ADVANCE, -1, e.id, count, 0, now() - t0, 0);
        return count;
    }

    /** An advance heard from {@code from}: its advance count is {@code n}. */
    void advanceArrived(int id, int from, long n) {
        Eventcount e = eventcount(id);
        long c = e.raise(from, n);
        if (c >= 0) {
            emit(EventType.COUNT_UPDATE, from, id, c, 0, 0, 0);
        }
    }

    /** Waits until the local count reaches {@code value}; fails after the configured timeout. */
    public void await(Eventcount e, long value) {
        if (!awaitImpl(e, value, cfg.timeoutMillis, EventType.AWAIT)) {
            throw new DsmException("await(event " + e.id + ", " + value + ") on m" + rank + " timed out after "
                    + cfg.timeoutMillis + " ms at count " + e.count() + "; members now " + net.ranks());
        }
    }

    /** Waits until the count reaches {@code value} or {@code millis} pass; true if it was reached. */
    public boolean awaitWithTimeout(Eventcount e, long value, long millis) {
        return awaitImpl(e, value, millis, EventType.AWAIT_WITH_TIMEOUT);
    }

    private boolean awaitImpl(Eventcount e, long value, long millis, EventType type) {
        check();
        long t0 = now();
        long w0 = System.nanoTime();
        long deadline = System.currentTimeMillis() + millis;
        boolean blocked = false;
        long lastProgress = System.currentTimeMillis();
        long seen = e.count();
        while (e.count() < value) {
            if (!blocked) {
                blocked = true;
                if (on(Level.MESSAGE)) {
                    mon.emit(EventType.MSG_RECEIVE_BEGIN, -1, e.id, 0, EventType.DATA, 0, 0);
                }
                if (mon != null) {
                    mon.blocking();
                }
            }
            long nowMs = System.currentTimeMillis();
            long left = deadline - nowMs;
            if (left <= 0) {
                break;
            }
            if (cfg.autoSyncMillis > 0 && nowMs - lastProgress >= cfg.autoSyncMillis) {
                eventSync(e);
                lastProgress = System.currentTimeMillis();
                continue;
            }
            synchronized (e) {
                if (e.count() < value) {
                    try {
                        e.wait(Math.max(1, Math.min(left, cfg.autoSyncMillis > 0 ? cfg.autoSyncMillis : left)));
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            long c = e.count();
            if (c != seen) {
                seen = c;
                lastProgress = System.currentTimeMillis();
            }
        }
        long reached = e.count();
        long dur = now() - t0;
        emitAt(t0, type, -1, e.id, value, reached, dur, blocked ? System.nanoTime() - w0 : 0);
        return reached >= value;
    }

    /** Brings the local count into a consistent state by asking every member for its advances. */
    public long eventSync(Eventcount e) {
        check();
        long t0 = now();
        long blocked = 0;
        TreeSet<Integer> others = net.others();
        if (!others.isEmpty()) {
            Call c = net.call("eventSync(event " + e.id + ")", others, false);
            net.request(c, Messenger.SYNCREQ, e.id, ByteBuffer.allocate(8).putLong(c.id).array());
            blocked = net.await(c, e.id); // replies carry every member's advances as each replier knows them
        }
        long count = e.count();
        emitAt(t0, EventType.EVENT_SYNC, -1, e.id, count, 0, now() - t0, blocked);
        return count;
    }

    /** Allocates a sequencer; member 0 is its first ticket master. */
    public Sequencer createSequencer() {
        check();
        int id;
        synchronized (this) {
            id = nextSeqr++;
        }
        return sequencer(id);
    }

    Sequencer sequencer(int id) {
        return seqrs.computeIfAbsent(id, k -> new Sequencer(k, rank == 0));
    }

    /** Passes every eventcount's state to the members staying, so advances heard only here are not lost. */
    private void handOffEventcounts() {
        TreeSet<Integer> others = net.others();
        if (others.isEmpty() || ecs.isEmpty()) {
            return;
        }
        List<Map<Integer, Long>> states = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        int bytes = 12;
        for (Eventcount e : ecs.values()) {
            Map<Integer, Long> k = e.known();
            states.add(k);
            ids.add(e.id);
            bytes += 8 + 12 * k.size();
        }
        ByteBuffer body = ByteBuffer.allocate(bytes);
        Call c = net.call("pass on eventcounts", others, false);
        body.putLong(c.id).putInt(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            body.putInt(ids.get(i)).putInt(states.get(i).size());
            for (Map.Entry<Integer, Long> x : states.get(i).entrySet()) {
                body.putInt(x.getKey()).putLong(x.getValue());
            }
        }
        net.send(-1, Messenger.ECSTATE, -1, body.array());
        net.await(c, -1, Math.min(cfg.timeoutMillis, 3000)); // best effort: members may be leaving too
    }

    /** Takes the next ticket (0, 1, 2, ...): locally if this member is the ticket master, else from it. */
    public long getTicket(Sequencer s) {
        return tickets.getTicket(s);
    }

    long[] ticketRequested(int id, int from) {
        return tickets.ticketRequested(id, from);
    }

    void masterHandedOver(int id, long next) {
        tickets.masterHandedOver(id, next);
    }

    java.util.Collection<Sequencer> sequencers() {
        return seqrs.values();
    }

    // ---------------------------------------------------------------- lifecycle

    /** Leaves the group normally (records the process end). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            tickets.handOffMasterRoles();
            handOffEventcounts();
            net.farewell(Math.min(cfg.timeoutMillis, 5000));
        } catch (RuntimeException ex) {
            System.err.println("dsm m" + rank + ": " + ex.getMessage());
        }
        if (mon != null) {
            mon.emit(EventType.PROC_END, -1, 0, 0, 0, 0, 0);
            mon.close();
        }
        shut();
    }

    /** Stops abruptly, as if the process were killed: no end event, the channel just goes away. */
    public void crash() {
        if (closed) {
            return;
        }
        if (mon != null) {
            mon.close();
        }
        shut();
    }

    private void shut() {
        closed = true;
        timer.shutdownNow();
        net.closing();
        ch.close();
    }

    boolean closed() {
        return closed;
    }

    /** Rank of a JGroups address. */
    static int rankOf(Address a) {
        return PeerIds.GLOBAL.applyAsInt(a);
    }
}
