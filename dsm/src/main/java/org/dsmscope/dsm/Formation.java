package org.dsmscope.dsm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a group of separate member JVMs forms (SPEC §9). Member 0 creates the group and then leaves a marker file
 * in the discovery directory; the other members connect only once the marker is there, so they find member 0 as
 * coordinator and join it instead of each creating a group of its own that a later merge would have to join
 * (which JGroups does, but with lost messages and false suspicions in between). The application starts once a
 * view holding every rank 0..n-1 has stayed unchanged for a settling time.
 */
final class Formation {
    private final int members;
    private final long settleMillis;
    private long viewId = -1;
    private long since = -1;

    /** Waits for views of {@code members} ranks that stay unchanged {@code settleMillis}. */
    Formation(int members, long settleMillis) {
        this.members = members;
        this.settleMillis = settleMillis;
    }

    /** The marker member 0 leaves once its group exists. */
    static Path marker(DsmConfig cfg) {
        return cfg.discoveryDir.resolve(cfg.cluster + ".created");
    }

    /** Called by member 0 after it connected: lets the others join. */
    static void announceCreated(DsmConfig cfg) throws IOException {
        Path tmp = cfg.discoveryDir.resolve(cfg.cluster + ".created.tmp");
        Files.writeString(tmp, Long.toString(ProcessHandle.current().pid()));
        Files.move(tmp, marker(cfg), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Called by members 1..n-1 before they connect: waits until member 0 has created the group. */
    static void awaitCreator(DsmConfig cfg) throws InterruptedException {
        Path m = marker(cfg);
        long deadline = System.currentTimeMillis() + cfg.timeoutMillis;
        while (!Files.exists(m)) {
            if (System.currentTimeMillis() > deadline) {
                throw new DsmException("member m" + cfg.rank + ": member m0 did not create group " + cfg.cluster
                        + " within " + cfg.timeoutMillis + " ms (no " + m + ")");
            }
            Thread.sleep(10);
        }
    }

    /**
     * Whether the group has formed at time {@code now}: the current view (id {@code viewId}) holds every rank
     * 0..members-1 and has not changed for the settling time.
     */
    boolean formed(Set<Integer> ranks, long viewId, long now) {
        if (missingRanks(ranks).isEmpty()) {
            if (viewId != this.viewId) {
                this.viewId = viewId;
                since = now;
            }
            return now - since >= settleMillis;
        }
        this.viewId = -1;
        return false;
    }

    private TreeSet<Integer> missingRanks(Set<Integer> ranks) {
        TreeSet<Integer> missing = new TreeSet<>();
        for (int r = 0; r < members; r++) {
            if (!ranks.contains(r)) {
                missing.add(r);
            }
        }
        return missing;
    }

    /** What is missing, for the error when the group does not form in time. */
    String missing(Set<Integer> ranks) {
        TreeSet<Integer> m = missingRanks(ranks);
        if (m.isEmpty()) {
            return "the group of " + members + " members kept changing";
        }
        StringBuilder b = new StringBuilder("only " + (members - m.size()) + " of " + members
                + " members joined (missing");
        for (int r : m) {
            b.append(" m").append(r);
        }
        return b.append(')').toString();
    }
}
