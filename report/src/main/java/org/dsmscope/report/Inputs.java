package org.dsmscope.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result files of one report, read and grouped by program (in the order first given): an empty list, or
 * results of different programs without {@code allowMixed}, is refused with one line naming the file.
 */
public final class Inputs {
    /** What one file gave: its results, and the study it describes (null unless a manifest). */
    public record Entry(List<Result> results, StudyManifest.Info study) {
    }

    /** The results per program, in the order the programs first appear. */
    public final Map<String, List<Result>> byProgram = new LinkedHashMap<>();
    /** The studies among the inputs. */
    public final List<StudyManifest.Info> studies = new ArrayList<>();
    /** The files as given. */
    public final List<Path> files;

    private Inputs(List<Path> files) {
        this.files = files;
    }

    /** Reads every file; refuses an empty list and, without {@code allowMixed}, results of several programs. */
    public static Inputs read(List<Path> files, boolean allowMixed) {
        if (files.isEmpty()) {
            throw new BadResultException("no result files given: name CIAT, CDAT, sweep or TDAT JSON results"
                    + " (or a study.json)");
        }
        Inputs in = new Inputs(files);
        Path firstFile = null;
        String first = null;
        for (Path f : files) {
            Entry e = ResultReader.read(f);
            if (e.study() != null) {
                in.studies.add(e.study());
            }
            for (Result r : e.results()) {
                if (first == null) {
                    first = r.program;
                    firstFile = f;
                } else if (!allowMixed && !first.equals(r.program)) {
                    throw new BadResultException(f + ": a result of program '" + r.program + "', but " + firstFile
                            + " is of '" + first + "' (one program per report; --allow-mixed puts several in one)");
                }
                in.byProgram.computeIfAbsent(r.program, k -> new ArrayList<>()).add(r);
            }
            if (e.study() != null && e.results().isEmpty()) {
                in.byProgram.computeIfAbsent(e.study().program(), k -> new ArrayList<>());
            }
        }
        return in;
    }
}
