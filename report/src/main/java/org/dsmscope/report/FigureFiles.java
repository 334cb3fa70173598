package org.dsmscope.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.batik.transcoder.TranscoderException;
import org.apache.batik.transcoder.TranscoderInput;
import org.apache.batik.transcoder.TranscoderOutput;
import org.apache.batik.transcoder.image.PNGTranscoder;

/**
 * {@code --figures DIR}: every chart of the report as a standalone SVG file ({@code ID.svg}, the same markup as in
 * the page, with an XML declaration) and a PNG file ({@code ID.png}, twice the SVG's size) rendered by Apache
 * Batik's transcoder, without a browser.
 */
final class FigureFiles {
    private FigureFiles() {
    }

    static int write(List<Report.Section> sections, Path dir) throws IOException {
        Files.createDirectories(dir);
        int n = 0;
        for (Report.Section s : sections) {
            for (Figure f : s.figures()) {
                for (int i = 0; i < f.svgs.size(); i++) {
                    String name = f.id + (f.svgs.size() > 1 ? "-" + (i + 1) : "");
                    String svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + f.svgs.get(i) + "\n";
                    Files.writeString(dir.resolve(name + ".svg"), svg, StandardCharsets.UTF_8);
                    png(svg, dir.resolve(name + ".png"));
                    n++;
                }
            }
        }
        return n;
    }

    /** Renders one SVG document to a PNG file at twice its size. */
    static void png(String svg, Path out) throws IOException {
        PNGTranscoder t = new PNGTranscoder();
        int w = attr(svg, "width");
        if (w > 0) {
            t.addTranscodingHint(PNGTranscoder.KEY_WIDTH, (float) (2 * w));
        }
        Path tmp = out.resolveSibling(out.getFileName() + ".partial");
        try (OutputStream o = Files.newOutputStream(tmp)) {
            t.transcode(new TranscoderInput(new StringReader(svg)), new TranscoderOutput(o));
        } catch (TranscoderException e) {
            Files.deleteIfExists(tmp);
            throw new IOException("cannot render " + out + ": " + e.getMessage(), e);
        }
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static int attr(String svg, String name) {
        int i = svg.indexOf(" " + name + "=\"");
        if (i < 0) {
            return 0;
        }
        int s = i + name.length() + 3;
        int e = svg.indexOf('"', s);
        try {
            return Integer.parseInt(svg.substring(s, e));
        } catch (NumberFormatException ex) {
            return 0;
        }
    }
}
