package org.dsmscope.ciat.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.trace.CallType;

/**
 * What a trace with a recorded interleaving cannot tell (a Lackey import, SPEC §2, trace/README.md): when the
 * trace holds turn hand-offs ({@code turn_acquire} records) or named synchronization ranges ({@code sync_range}
 * records), the report says that no lock, barrier or thread creation of the program was recorded, so phases and
 * waits are those of the serialised run the recorder made (waiting for a turn counts as idle), and that lock words
 * count as ordinary data unless named (seed 001 §5.1 leaves synchronization variables out of communication). Read
 * from the aggregate's call counts, so a partitioned run says the same.
 */
final class RecordedOrder {
    private RecordedOrder() {
    }

    /** Hand-offs replayed (turn_acquire records). */
    static long handoffs(CiatResult res) {
        return res.aggregate.mix.callCount[CallType.TURN_ACQUIRE];
    }

    /** Synchronization ranges named (sync_range records). */
    static long syncRanges(CiatResult res) {
        return res.aggregate.mix.callCount[CallType.SYNC_RANGE];
    }

    /** True if the trace says anything of this: it has hand-offs or named ranges. */
    static boolean applies(CiatResult res) {
        return handoffs(res) > 0 || syncRanges(res) > 0;
    }

    /** The report's header lines ({@code # recorded_order: ...}, {@code # sync_variables: ...}), or none. */
    static List<String> lines(CiatResult res) {
        List<String> out = new ArrayList<>();
        if (!applies(res)) {
            return out;
        }
        out.add("# recorded_order: handoffs " + handoffs(res) + ": " + orderNote(res));
        out.add("# sync_variables: named_ranges " + syncRanges(res) + ": " + syncNote(res));
        return out;
    }

    /** The JSON object "recordedOrder" ({@code handoffs}, {@code syncRanges}, {@code order}, {@code sync}). */
    static void json(ObjectNode root, CiatResult res) {
        if (!applies(res)) {
            return;
        }
        ObjectNode o = root.putObject("recordedOrder");
        o.put("handoffs", handoffs(res));
        o.put("syncRanges", syncRanges(res));
        o.put("order", orderNote(res));
        o.put("sync", syncNote(res));
    }

    private static String orderNote(CiatResult res) {
        if (handoffs(res) == 0) {
            return "no hand-offs: one thread, or threads replayed by pseudo clock";
        }
        return "the replay follows one recorded interleaving (Valgrind runs one thread at a time); no lock, barrier"
                + " or thread creation of the program is recorded, so phases and waits are those of that serialised"
                + " run, and a thread waiting for its turn counts as idle";
    }

    private static String syncNote(CiatResult res) {
        if (syncRanges(res) == 0) {
            return "none named: lock words count as ordinary data (name them on the import: dsmscope import lackey"
                    + " --sync-addresses)";
        }
        return "accesses starting in the named ranges are left out of communication; other lock words count as"
                + " ordinary data";
    }
}
