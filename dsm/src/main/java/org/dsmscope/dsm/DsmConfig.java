package org.dsmscope.dsm;

import java.nio.file.Path;
import org.dsmscope.monitor.Router;

/** How a member joins: its rank, the group size, the transport, emulated loss and delay, monitoring. */
public final class DsmConfig {
    /** Transport choice. */
    public enum Transport {
        /** JGroups' shared-loopback transport: several members in one JVM (tests). */
        SHARED_LOOPBACK,
        /** UDP on 127.0.0.1, discovery through files in {@link #discoveryDir}: members as separate JVMs. */
        UDP
    }

    /** This member's rank 0..members-1 (its JGroups logical name is "m" + rank). */
    public int rank;
    /** Number of members to wait for. */
    public int members = 1;
    /** Group (cluster) name. */
    public String cluster = "dsmscope";
    /** Transport. */
    public Transport transport = Transport.SHARED_LOOPBACK;
    /** Probability that an arriving packet is dropped (JGroups DISCARD). */
    public double loss;
    /** Delay added to every incoming packet, ms (JGroups DELAY). */
    public int delayMillis;
    /** Router of the monitor, or null for an unmonitored member. */
    public Router router;
    /** Clock skew injected into this member's event timestamps (ns), for tests of clock alignment. */
    public long skewNanos;
    /** Longest time any blocking operation waits before failing (ms). */
    public long timeoutMillis = 20_000;
    /** An await blocked this long without progress brings its count up to date itself (ms; 0: never). */
    public long autoSyncMillis = 100;
    /** Directory for UDP discovery files (FILE_PING). */
    public Path discoveryDir;
    /** Fragment size of FRAG4 in bytes. */
    public int fragSize = 8192;

    /** A configuration for member {@code rank} of {@code members}. */
    public static DsmConfig of(int rank, int members) {
        DsmConfig c = new DsmConfig();
        c.rank = rank;
        c.members = members;
        return c;
    }
}
