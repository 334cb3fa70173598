package org.dsmscope.ciat;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.ciat.comm.PartialLog;

/**
 * What {@link Partitioned#mergeParts} needs of one partition of a partitioned CIAT run (SPEC §4 "Partitioning"),
 * as a compact serializable value that can leave the process that ran the partition (a Spark task): its phase
 * statistics and memory figures ({@link CiatResult}), the partial results of its page-crossing accesses, its rows
 * of the memory usage file and its spilled communication events (empty without {@code -ciat_events}). Not the
 * partition's location state.
 */
public final class CiatPart implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final CiatResult result;
    private final PartialLog partial;
    private final ArrayList<long[]> pageRows;
    private final byte[] events;

    private CiatPart(CiatResult result, PartialLog partial, List<long[]> pageRows, byte[] events) {
        this.result = result;
        this.partial = partial;
        this.pageRows = new ArrayList<>(pageRows);
        this.events = events;
    }

    /**
     * The shippable results of {@code ciat}, one partition after its replay's end; its event spill (if any) is
     * read in and deleted.
     */
    public static CiatPart of(Ciat ciat) {
        byte[] ev = new byte[0];
        SeqEventFile spill = ciat.seqEvents();
        if (spill != null) {
            try (DataInputStream in = spill.reader()) {
                ev = in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read a temporary event file: " + e.getMessage(), e);
            } finally {
                spill.delete();
            }
        }
        return new CiatPart(ciat.result(), ciat.partialLog(), ciat.memoryUsage().pageRows(), ev);
    }

    /** The partition's statistics per phase and aggregate, and its memory figures. */
    public CiatResult result() {
        return result;
    }

    /** The partial results of page-crossing accesses. */
    PartialLog partialLog() {
        return partial;
    }

    /** The partition's rows of the memory usage file ({@code MemoryUsage#pageRows}). */
    List<long[]> pageRows() {
        return pageRows;
    }

    /** The spilled events, for {@link SeqEventFile#read}. */
    DataInputStream events() {
        return new DataInputStream(new ByteArrayInputStream(events));
    }

    /** The serialized size's main parts, bytes: page rows and events (for a task's log line). */
    public long bytes() {
        return pageRows.size() * 9L * 8 + events.length;
    }
}
