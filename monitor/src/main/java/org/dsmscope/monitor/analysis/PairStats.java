package org.dsmscope.monitor.analysis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Transport counters of one directed process pair (sender → receiver), seed 002 §4.1.3. */
public final class PairStats {
    /** Sending process. */
    public final int from;
    /** Receiving process. */
    public final int to;
    /** Data packets (fragments) sent, first transmissions. */
    public long dataSent;
    /** Data packets retransmitted. */
    public long retrans;
    /** Retransmissions caused by a timer expiry. */
    public long retransTimeout;
    /** Retransmissions caused by a NACK. */
    public long retransNack;
    /** Data packets received (including duplicates). */
    public long dataRecv;
    /** Data bytes sent (first transmissions and retransmissions). */
    public long bytesSent;
    /** Data bytes received. */
    public long bytesRecv;
    /** ACK packets sent / received. */
    public long ackSent, ackRecv;
    /** NACK packets sent / received. */
    public long nackSent, nackRecv;
    /** Duplicate whole (unfragmented) messages received. */
    public long dupMessages;
    /** Duplicate fragments of fragmented messages received. */
    public long dupFragments;
    /** Packets the receiver discarded on arrival. */
    public long discards;
    /**
     * Data packets (first transmissions and retransmissions), ACKs and NACKs sent after the receiver's last recorded
     * event: the receiver had ended (or stopped recording), so no receive could be seen; not counted as lost.
     */
    public long dataAfterEnd, acksAfterEnd, nacksAfterEnd;
    /** Round-trip samples (ACK received for a data packet) and their sum in ns. */
    public long rttSamples, rttSum;
    /** First and last time (aligned ns) of a data packet on this pair. */
    public long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
    /** Retransmission levels: attempts → number of fragments retransmitted exactly that many times. */
    public final TreeMap<Integer, Long> levels = new TreeMap<>();

    /** Counters for the pair {@code from → to}. */
    public PairStats(int from, int to) {
        this.from = from;
        this.to = to;
    }

    /** Average throughput in bytes per second over the pair's active interval (0 if unknown). */
    public double throughput() {
        long span = last - first;
        return span <= 0 ? 0 : bytesRecv * 1e9 / span;
    }

    /** Average round-trip time in microseconds (NaN if no sample). */
    public double rttMicros() {
        return rttSamples == 0 ? Double.NaN : rttSum / 1e3 / rttSamples;
    }

    /** Loss rate of packets: 1 − received / sent (0 when nothing was sent; never negative). */
    public static double loss(long sent, long recv) {
        return sent <= 0 ? 0 : Math.max(0, 1 - (double) recv / sent);
    }

    /** Data packet loss rate (retransmissions count as packets sent; packets sent after the receiver ended do not). */
    public double dataLoss() {
        return loss(dataSent + retrans - dataAfterEnd, dataRecv);
    }

    /** ACK packet loss rate (ACKs sent after the receiver ended do not count). */
    public double ackLoss() {
        return loss(ackSent - acksAfterEnd, ackRecv);
    }

    /** NACK packet loss rate (NACKs sent after the receiver ended do not count). */
    public double nackLoss() {
        return loss(nackSent - nacksAfterEnd, nackRecv);
    }

    /** Retransmissions as a percentage of all data packets sent. */
    public double retransPercent() {
        long all = dataSent + retrans;
        return all == 0 ? 0 : 100.0 * retrans / all;
    }

    /** Duplicates (messages and fragments) as a percentage of data packets received. */
    public double dupPercent() {
        return dataRecv == 0 ? 0 : 100.0 * (dupMessages + dupFragments) / dataRecv;
    }

    /** The pair as a JSON-ready tree: one element of {@code monitor summary --json}'s {@code pairs}. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("from", from);
        m.put("to", to);
        m.put("throughputBytesPerSec", throughput());
        m.put("rttMicros", Double.isNaN(rttMicros()) ? null : rttMicros());
        m.put("dataSent", dataSent);
        m.put("dataReceived", dataRecv);
        m.put("dataLossRate", dataLoss());
        m.put("ackSent", ackSent);
        m.put("ackReceived", ackRecv);
        m.put("ackLossRate", ackLoss());
        m.put("nackSent", nackSent);
        m.put("nackReceived", nackRecv);
        m.put("nackLossRate", nackLoss());
        m.put("retransmissions", retrans);
        m.put("retransmissionPercent", retransPercent());
        m.put("retransByTimeout", retransTimeout);
        m.put("retransByNack", retransNack);
        m.put("duplicateMessages", dupMessages);
        m.put("duplicateFragments", dupFragments);
        m.put("duplicatePercent", dupPercent());
        m.put("discards", discards);
        m.put("dataSentAfterReceiverEnded", dataAfterEnd);
        m.put("acksSentAfterReceiverEnded", acksAfterEnd);
        m.put("nacksSentAfterReceiverEnded", nacksAfterEnd);
        Map<String, Long> lv = new LinkedHashMap<>();
        levels.forEach((k, v) -> lv.put(Integer.toString(k), v));
        m.put("retransmissionLevels", lv);
        return m;
    }
}
