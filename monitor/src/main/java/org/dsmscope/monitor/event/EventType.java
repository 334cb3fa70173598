package org.dsmscope.monitor.event;

/**
 * Every event of seed 002 §4.1 at its level, plus the few extension events dsmscope needs (process start / end,
 * local count updates, false-sharing begin / merge of §3.2). Each event carries five generic fields
 * {@code a..e}; {@link #fields} names them for this type (see monitor/README.md for the full table).
 */
public enum EventType {
    // programming model (§4.1.1): d = nanoseconds spent in the call, e = nanoseconds of it blocked
    /** A segment allocated from the global address space: seg, base address, size, -, kind (type*16+consistency). */
    CREATE_SEG(1, Level.PROGRAM, "seg", "base", "size", "dur", "kind"),
    /** Updates of a segment sent to its copy set: seg, put sequence number, diff bytes. */
    PUT_UPDATES(2, Level.PROGRAM, "seg", "seq", "bytes", "dur", "blocked"),
    /** Request for updates of a segment: seg, sequence number (updates applied so far), updates applied now. */
    GET_UPDATES(3, Level.PROGRAM, "seg", "seq", "applied", "dur", "blocked"),
    /** Join the copy set of a segment: seg, copy-set sequence number, copy-set size after. */
    NEED_UPDATES(4, Level.PROGRAM, "seg", "seq", "copyset", "dur", "blocked"),
    /** Leave the copy set of a segment: seg, copy-set sequence number, copy-set size after. */
    DONT_NEED_UPDATES(5, Level.PROGRAM, "seg", "seq", "copyset", "dur", "blocked"),
    /** An eventcount allocated: event id. */
    CREATE_EVENT(6, Level.PROGRAM, "event", "-", "-", "dur", "-"),
    /** An advance: event id, new value (the sequence number). */
    ADVANCE(7, Level.PROGRAM, "event", "value", "-", "dur", "-"),
    /** Await an eventcount value: event id, awaited value, value reached. */
    AWAIT(8, Level.PROGRAM, "event", "awaited", "reached", "dur", "blocked"),
    /** Await with a timeout: event id, awaited value, value reached (below awaited: timed out). */
    AWAIT_WITH_TIMEOUT(9, Level.PROGRAM, "event", "awaited", "reached", "dur", "blocked"),
    /** Bring a local count into a consistent state: event id, count after (the sequence number). */
    EVENT_SYNC(10, Level.PROGRAM, "event", "value", "-", "dur", "blocked"),
    /** A ticket from a sequencer: sequencer id, ticket (the sequence number), redirects followed. */
    GET_TICKET(11, Level.PROGRAM, "seq", "ticket", "redirects", "dur", "blocked"),
    /** Concurrent writers to one segment between consistency points detected (§3.2): seg; peer = other writer. */
    FALSE_SHARING_BEGIN(12, Level.PROGRAM, "seg", "-", "-", "-", "-"),
    /** Concurrent writes merged with twins and diffs: seg, bytes merged, conflicting bytes; peer = other writer. */
    FALSE_SHARING_MERGE(13, Level.PROGRAM, "seg", "merged", "conflicts", "-", "-"),
    /** Extension: a member's local count of an eventcount changed on receipt; peer = advancing process. */
    COUNT_UPDATE(14, Level.PROGRAM, "event", "value", "-", "-", "-"),
    /** Extension: process started (its name is in the recording's process table). */
    PROC_START(15, Level.PROGRAM, "-", "-", "-", "-", "-"),
    /** Extension: process ended normally. */
    PROC_END(16, Level.PROGRAM, "-", "-", "-", "-", "-"),

    // logical messages (§4.1.2): peer = destination (-1 multicast) or source; c = 0 data, 1 request, 2 reply
    /** A process begins sending a logical message: context (seg / event / sequencer), message seq, type, bytes. */
    MSG_SEND_BEGIN(32, Level.MESSAGE, "context", "msgseq", "type", "bytes", "-"),
    /** The send unblocks (asynchronous: the message is handed to the transport). */
    MSG_SEND_END(33, Level.MESSAGE, "context", "msgseq", "type", "bytes", "-"),
    /** A process begins waiting for a logical message: context, -, expected type. */
    MSG_RECEIVE_BEGIN(34, Level.MESSAGE, "context", "-", "type", "-", "-"),
    /** A complete logical message received: context, sender's message seq, type, bytes. */
    MSG_RECEIVE_END(35, Level.MESSAGE, "context", "msgseq", "type", "bytes", "-"),

    // transport (§4.1.3): a = protocol seqno, b = fragment index (-1 unfragmented), c = protocol (0 none, 1 NAKACK2, 2 UNICAST3)
    /** A packet (fragment) sent; peer = destination, -1 multicast. */
    FRAG_SEND(64, Level.TRANSPORT, "seqno", "frag", "proto", "bytes", "-"),
    /** A packet (fragment) received; peer = sender. */
    FRAG_RECV(65, Level.TRANSPORT, "seqno", "frag", "proto", "bytes", "-"),
    /** A cumulative ACK sent: acked seqno. */
    ACK_SEND(66, Level.TRANSPORT, "seqno", "-", "proto", "-", "-"),
    /** A cumulative ACK received: acked seqno; d = round-trip time in ns of that seqno (0 if unknown). */
    ACK_RECV(67, Level.TRANSPORT, "seqno", "-", "proto", "rtt", "-"),
    /** A selective NACK (retransmission request) sent: first missing seqno, number missing. */
    NACK_SEND(68, Level.TRANSPORT, "seqno", "missing", "proto", "-", "-"),
    /** A selective NACK received: first missing seqno, number missing. */
    NACK_RECV(69, Level.TRANSPORT, "seqno", "missing", "proto", "-", "-"),
    /** A fragment retransmitted: seqno, frag, proto, bytes, e = attempt*4 + cause (1 timeout, 2 NACK). */
    RETRANS_SEND(70, Level.TRANSPORT, "seqno", "frag", "proto", "bytes", "attempt*4+cause"),
    /** A duplicate received: seqno, frag, proto; e = 1 whole (unfragmented) message, 0 fragment of a message. */
    DUPLICATE_FRAG(71, Level.TRANSPORT, "seqno", "frag", "proto", "bytes", "whole"),
    /** A packet discarded on arrival (lost): seqno, frag, proto, bytes. */
    PACKET_DISCARD(72, Level.TRANSPORT, "seqno", "frag", "proto", "bytes", "-");

    /** Message type code: data message. */
    public static final int DATA = 0;
    /** Message type code: request message. */
    public static final int REQUEST = 1;
    /** Message type code: reply message. */
    public static final int REPLY = 2;
    /** Retransmission cause: the retransmission timer expired. */
    public static final int CAUSE_TIMEOUT = 1;
    /** Retransmission cause: a NACK asked for it. */
    public static final int CAUSE_NACK = 2;

    /** Stable code written in recordings. */
    public final int code;
    /** The level (class) of the event. */
    public final Level level;
    /** Names of fields a..e for this type ("-" unused). */
    public final String[] fields;

    private static final EventType[] BY_CODE = new EventType[128];

    static {
        for (EventType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    EventType(int code, Level level, String... fields) {
        this.code = code;
        this.level = level;
        this.fields = fields;
    }

    /** The type with this code, or null. */
    public static EventType of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** The seed's name of the event, e.g. {@code Msg_Send_Begin}. */
    public String seedName() {
        switch (this) {
            case AWAIT_WITH_TIMEOUT: return "Await_with_Timeout";
            case ACK_SEND: return "ACK_Send";
            case ACK_RECV: return "ACK_Recv";
            case NACK_SEND: return "NACK_Send";
            case NACK_RECV: return "NACK_Recv";
            default:
                StringBuilder sb = new StringBuilder();
                for (String w : name().split("_")) {
                    if (sb.length() > 0) {
                        sb.append('_');
                    }
                    sb.append(w.charAt(0)).append(w.substring(1).toLowerCase(java.util.Locale.ROOT));
                }
                return sb.toString();
        }
    }
}
