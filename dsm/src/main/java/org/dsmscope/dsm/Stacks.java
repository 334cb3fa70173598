package org.dsmscope.dsm;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.monitor.Monitor;
import org.dsmscope.monitor.probe.ObservedDiscard;
import org.dsmscope.monitor.probe.TransportProbe;
import org.jgroups.protocols.DELAY;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FILE_PING;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.SHARED_LOOPBACK;
import org.jgroups.protocols.SHARED_LOOPBACK_PING;
import org.jgroups.protocols.UDP;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;

/**
 * The JGroups protocol stacks of the DSM runtime (SPEC §9): transport (shared loopback, or UDP bound to 127.0.0.1
 * with multicast TTL 0, IP multicast off and diagnostics off), discovery, failure detection, DELAY and DISCARD
 * emulating the network, the monitor's {@link TransportProbe} right above them, NAKACK2 (NACK-based reliable
 * multicast, as TMTP), UNICAST3, STABLE, GMS and FRAG4 fragmentation.
 */
final class Stacks {
    private Stacks() {
    }

    /** Builds the stack, bottom first; the probe and discard layers are returned through {@code out}. */
    static List<Protocol> build(DsmConfig cfg, Monitor monitor, Protocol[] out) throws Exception {
        List<Protocol> p = new ArrayList<>();
        if (cfg.transport == DsmConfig.Transport.SHARED_LOOPBACK) {
            SHARED_LOOPBACK tp = new SHARED_LOOPBACK();
            tp.disableDiagnostics();
            p.add(tp);
            p.add(new SHARED_LOOPBACK_PING());
        } else {
            UDP udp = new UDP();
            udp.setBindAddress(InetAddress.getByName("127.0.0.1"));
            udp.setMulticasting(false);
            udp.setIpTTL(0);
            udp.disableDiagnostics();
            p.add(udp);
            FILE_PING ping = new FILE_PING();
            ping.setLocation(cfg.discoveryDir.toString());
            ping.setValue("remove_all_data_on_view_change", true);
            p.add(ping);
            p.add(new MERGE3().setMinInterval(500).setMaxInterval(1500));
            p.add(new FD_SOCK2());
            p.add(new FD_ALL3().setTimeout(8000).setInterval(2000));
            p.add(new VERIFY_SUSPECT2().setTimeout(1000));
        }
        if (cfg.delayMillis > 0) {
            DELAY d = new DELAY();
            d.setInDelay(cfg.delayMillis);
            p.add(d);
        }
        TransportProbe probe = null;
        if (monitor != null) {
            probe = new TransportProbe(monitor);
            ObservedDiscard discard = new ObservedDiscard(probe);
            p.add(discard);
            p.add(probe);
            out[1] = discard;
        } else {
            org.jgroups.protocols.DISCARD discard = new org.jgroups.protocols.DISCARD();
            p.add(discard);
            out[1] = discard;
        }
        out[0] = probe;
        NAKACK2 nak = new NAKACK2();
        nak.setXmitInterval(50);
        // A receiver learns that it missed a sender's last multicast only from the sender's resend of its highest
        // seqno (once by default) or from STABLE's next gossip (2 s): under loss that one resend is lost too now
        // and then, and a waiting getUpdates or await stalled for seconds. Five resends, 50 ms apart, while idle.
        nak.setResendLastSeqnoMaxTimes(5);
        nak.useMcastXmit(false);
        p.add(nak);
        UNICAST3 uni = new UNICAST3();
        uni.setXmitInterval(50);
        uni.setAckThreshold(1); // ACK at once, so ACK round trips measure the path, not an ACK delay
        p.add(uni);
        p.add(new STABLE().setDesiredAverageGossip(2000).setMaxBytes(1_000_000));
        GMS gms = new GMS();
        if (cfg.transport == DsmConfig.Transport.UDP) {
            // joiners find member 0 as coordinator (Formation); on a loaded machine a join response may take a
            // while, and a joiner that gave up would make a group of its own, to be merged later
            gms.setJoinTimeout(2000).setMaxJoinAttempts(5);
        } else {
            gms.setJoinTimeout(500);
        }
        gms.setValue("print_local_addr", false);
        p.add(gms);
        FRAG4 frag = new FRAG4();
        frag.setFragSize(cfg.fragSize);
        p.add(frag);
        return p;
    }
}
