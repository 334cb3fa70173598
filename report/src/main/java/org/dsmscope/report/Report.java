package org.dsmscope.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The report (SPEC §10, issue 25): the seeds' figures from result files, one section per program, each figure over
 * the numbers of processors of that program's results (seed 001 §5 draws its figures so). {@link #html} is one
 * self-contained page (format {@value #FORMAT}); {@link FigureFiles} writes the same figures as SVG and PNG files.
 */
public final class Report {
    /** The format name and version of the HTML page, in its {@code <meta name="generator">} and first comment. */
    public static final String FORMAT = "dsmscope-report 1";

    /** One program's figures and the study runs that failed. */
    record Section(String program, List<Figure> figures, List<StudyManifest.Run> failed, StudyManifest.Info study) {
    }

    private Report() {
    }

    /** The sections of a report, in the order the programs were first given. */
    static List<Section> sections(Inputs in) {
        List<Section> out = new ArrayList<>();
        for (Map.Entry<String, List<Result>> e : in.byProgram.entrySet()) {
            String prefix = Labels.slug(e.getKey());
            if (prefix.isEmpty()) {
                prefix = "program";
            }
            List<Result> ciat = new ArrayList<>();
            List<Result> ageOnly = new ArrayList<>();
            List<Result> allCiat = kind(e.getValue(), Kind.CIAT);
            for (Result r : allCiat) {
                (CiatFigures.ageOnly(r, allCiat) ? ageOnly : ciat).add(r);
            }
            List<Result> cdat = kind(e.getValue(), Kind.CDAT);
            List<Figure> figs = new ArrayList<>();
            if (!ciat.isEmpty()) {
                figs.addAll(new CiatFigures(prefix, ciat, ageOnly).all());
            }
            figs.addAll(TdatFigures.of(prefix, kind(e.getValue(), Kind.TDAT_TIME), kind(e.getValue(), Kind.TDAT)));
            if (!cdat.isEmpty()) {
                figs.addAll(CdatFigures.of(prefix, cdat));
            }
            for (Result s : kind(e.getValue(), Kind.SWEEP)) {
                figs.addAll(CdatFigures.sweep(prefix, s));
            }
            figs.addAll(ExplainFigures.of(prefix, kind(e.getValue(), Kind.EXPLAIN)));
            List<StudyManifest.Run> failed = new ArrayList<>();
            StudyManifest.Info study = null;
            for (StudyManifest.Info st : in.studies) {
                if (st.program().equals(e.getKey())) {
                    study = st;
                    for (StudyManifest.Run r : st.runs()) {
                        if (!r.ok()) {
                            failed.add(r);
                        }
                    }
                }
            }
            out.add(new Section(e.getKey(), figs, failed, study));
        }
        return out;
    }

    /** The results of one kind, by number of processors (stable: the order given among equals). */
    private static List<Result> kind(List<Result> rs, Kind k) {
        List<Result> out = new ArrayList<>();
        for (Result r : rs) {
            if (r.kind == k) {
                out.add(r);
            }
        }
        out.sort(Comparator.comparingInt(r -> r.processors));
        return out;
    }

    /** The page as text. */
    public static String html(Inputs in) {
        return HtmlPage.render(in, sections(in));
    }

    /** Writes the page to {@code out} (under a temporary name first, renamed when complete). */
    public static void write(Inputs in, Path out) throws IOException {
        String page = html(in);
        Path tmp = out.resolveSibling(out.getFileName() + ".partial");
        Files.writeString(tmp, page, StandardCharsets.UTF_8);
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Writes every chart of the report as {@code ID.svg} and {@code ID.png} into {@code dir}; returns the count. */
    public static int writeFigures(Inputs in, Path dir) throws IOException {
        return FigureFiles.write(sections(in), dir);
    }
}
