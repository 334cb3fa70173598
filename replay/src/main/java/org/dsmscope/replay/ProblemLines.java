package org.dsmscope.replay;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * The header lines with which a report of a run that continued past problems ({@link ReplayOptions#skipBadRecords})
 * says so: {@code # incomplete: ...}, one {@code # problem: ...} per problem kept, and how many were not listed.
 * CIAT's and CDAT's reports share them.
 */
public final class ProblemLines {
    private ProblemLines() {
    }

    /** Writes the lines for {@code count} problems of which {@code kept} are listed; nothing if there were none. */
    public static void write(Writer w, List<String> kept, long count) throws IOException {
        if (count <= 0) {
            return;
        }
        w.write("# incomplete: continued past " + count + " problem(s) (--skip-bad-records);"
                + " the results cover what could be analysed\n");
        for (String p : kept) {
            w.write("# problem: " + p.replace('\n', ' ') + "\n");
        }
        if (count > kept.size()) {
            w.write("# problems not listed: " + (count - kept.size()) + "\n");
        }
    }
}
