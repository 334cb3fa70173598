package org.dsmscope.tdat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * TDAT, the time distribution analysis tool (seed 000 §6, seed 001 §5.5, SPEC §7): puts the selected events of one
 * or more event traces into bins by their clock and gives the rate figures of {@link TdatResult}. Use: {@link
 * #read(Path)} each input (streamed, never loaded whole), then {@link #result()}, {@link TimeFile#write} for
 * {@code event.time}, {@link TextReport} and {@link TdatJson} for the figures.
 */
public final class Tdat {
    /** One input as read: its kind, its records (event lines) and how many of them were selected. */
    public record Input(Path file, InputKind kind, long records, long events) {
    }

    private final TdatOptions options;
    private final Bins bins;
    private final List<Input> inputs = new ArrayList<>();

    /** A run with {@code options}, checked here. */
    public Tdat(TdatOptions options) {
        options.validate();
        this.options = options;
        this.bins = new Bins(options.binWidth);
    }

    /** Reads one input file (any kind TDAT reads, detected) into the bins; returns what it held. */
    public Input read(Path file) {
        Input in = EventReader.read(file, options.selection, bins);
        inputs.add(in);
        return in;
    }

    /** The bins so far. */
    public Bins bins() {
        return bins;
    }

    /** The options of this run. */
    public TdatOptions options() {
        return options;
    }

    /** The figures of every input read so far. */
    public TdatResult result() {
        return TdatResult.of(bins.counts(), options, inputs);
    }
}
