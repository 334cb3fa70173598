package org.dsmscope.monitor.probe;

import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.protocols.DISCARD;

/**
 * JGroups' own DISCARD (packet loss emulation), reporting each packet it drops on arrival to the
 * {@link TransportProbe} as {@code Packet_Discard} (seed 002 §4.1.3). Place it directly below the probe.
 */
public class ObservedDiscard extends DISCARD {
    private final TransportProbe probe;

    /** A DISCARD layer that reports its drops to {@code probe}. */
    public ObservedDiscard(TransportProbe probe) {
        this.probe = probe;
    }

    @Override
    protected boolean shouldDropUpMessage(Message msg, Address sender) {
        boolean drop = super.shouldDropUpMessage(msg, sender);
        if (drop && msg.getSrc() != null && !msg.getSrc().equals(local_addr)) {
            probe.discarded(msg);
        }
        return drop;
    }
}
