package org.dsmscope.report;

import java.nio.file.Path;
import java.util.List;

/**
 * Renders the report as one self-contained HTML page: inline style, inline SVG charts, one inline script (a hover
 * box showing the {@code <title>} of the element under the pointer; after the first frame drawn past the load
 * event, the performance mark {@code dsmscope-ready} and {@code data-ready="1"} on {@code <html>}), and nothing
 * fetched from anywhere. The page
 * starts with the format comment and names the format in {@code <meta name="generator">}.
 */
final class HtmlPage {
    private static final String STYLE = "body{font:14px/1.45 sans-serif;margin:0 auto;max-width:1000px;padding:0 16px"
            + ";color:#222}h1{font-size:24px}h2{margin-top:40px;border-bottom:2px solid #0072b2}h3{font-size:16px"
            + ";margin:28px 0 4px}.seed{font-weight:normal;color:#666;font-size:13px}.guide{margin:2px 0 8px;color:#333}"
            + "figure{margin:0 0 12px}svg{max-width:100%;height:auto;margin:4px 8px 4px 0}table{border-collapse:collapse"
            + ";font-size:12px;margin:6px 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}"
            + "td:first-child,th:first-child{text-align:left}details summary{cursor:pointer;color:#0072b2}"
            + ".failed{background:#fde8e0;border:1px solid #d55e00;padding:6px 10px}nav li{display:inline;margin-right:12px}"
            + "#tip{position:fixed;display:none;background:#222;color:#fff;padding:3px 7px;border-radius:3px"
            + ";font-size:12px;pointer-events:none;z-index:9}";
    private static final String SCRIPT = "(function(){var t=document.getElementById('tip');"
            + "document.addEventListener('mousemove',function(e){var n=e.target;"
            + "var s=n&&n.querySelector?n.querySelector(':scope>title'):null;"
            + "if(s&&n.hasAttribute('data-value')){t.textContent=s.textContent;t.style.display='block';"
            + "t.style.left=(e.clientX+12)+'px';t.style.top=(e.clientY+12)+'px';}else{t.style.display='none';}});"
            // drawn: the first frame after the load event (every chart is inline SVG, laid out by then)
            + "window.addEventListener('load',function(){requestAnimationFrame(function(){setTimeout(function(){"
            + "performance.mark('dsmscope-ready');document.documentElement.setAttribute('data-ready','1');},0);});});"
            + "})();";

    private HtmlPage() {
    }

    static String render(Inputs in, List<Report.Section> sections) {
        StringBuilder b = new StringBuilder(1 << 16);
        b.append("<!DOCTYPE html>\n<!-- ").append(Report.FORMAT).append(" -->\n<html lang=\"en\"><head>"
                + "<meta charset=\"utf-8\"><meta name=\"generator\" content=\"").append(Report.FORMAT).append("\">"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline';"
                + " script-src 'unsafe-inline'; img-src data:\">"
                + "<title>dsmscope report: ");
        StringBuilder names = new StringBuilder();
        for (Report.Section s : sections) {
            names.append(names.length() == 0 ? "" : ", ").append(s.program());
        }
        b.append(Fmt.esc(names.toString())).append("</title><style>").append(STYLE).append("</style></head><body>\n");
        b.append("<h1>dsmscope report: ").append(Fmt.esc(names.toString())).append("</h1>\n");
        b.append("<p>The figures of seed 001 §5 (CIAT), seed 000 §5 (CDAT) and §6 (TDAT) from ");
        b.append(in.files.size()).append(in.files.size() == 1 ? " result file" : " result files")
                .append(". Hover over a bar, point or cell for its value; open \"numbers\" under a figure for the"
                        + " table behind it.</p>\n<details><summary>inputs</summary><ul>");
        for (Path f : in.files) {
            b.append("<li>").append(Fmt.esc(f.toString())).append("</li>");
        }
        b.append("</ul></details>\n<nav><ul>");
        for (Report.Section s : sections) {
            b.append("<li><a href=\"#").append(Fmt.esc(sectionId(s))).append("\">").append(Fmt.esc(s.program()))
                    .append("</a></li>");
        }
        b.append("</ul></nav>\n");
        for (Report.Section s : sections) {
            section(b, s);
        }
        b.append("<div id=\"tip\"></div><script>").append(SCRIPT).append("</script>\n</body></html>\n");
        return b.toString();
    }

    private static String sectionId(Report.Section s) {
        return "program-" + Labels.slug(s.program());
    }

    private static void section(StringBuilder b, Report.Section s) {
        b.append("<section id=\"").append(Fmt.esc(sectionId(s))).append("\"><h2>").append(Fmt.esc(s.program()))
                .append("</h2>\n");
        if (s.study() != null) {
            b.append("<p class=\"study\">Study: <code>").append(Fmt.esc(s.study().command())).append("</code>, ")
                    .append(s.study().runs().size()).append(" runs.</p>\n");
        }
        for (StudyManifest.Run r : s.failed()) {
            b.append("<p class=\"failed\" data-threads=\"").append(r.threads()).append("\">The run with ")
                    .append(r.threads()).append(r.threads() == 1 ? " thread" : " threads").append(" failed: ")
                    .append(Fmt.esc(r.message() == null ? "no reason given" : r.message()))
                    .append("; its figures are missing.</p>\n");
        }
        if (s.figures().isEmpty()) {
            b.append("<p>No results to draw.</p>\n");
        }
        for (Figure f : s.figures()) {
            b.append("<figure id=\"").append(Fmt.esc(f.id)).append("\"><h3>").append(Fmt.esc(f.title))
                    .append(" <span class=\"seed\">(").append(Fmt.esc(f.seed)).append(")</span></h3><p class=\"guide\">")
                    .append(Fmt.esc(f.guide)).append("</p>\n");
            for (String svg : f.svgs) {
                b.append(svg).append('\n');
            }
            if (!f.rows.isEmpty()) {
                boolean open = f.svgs.isEmpty() || f.open;
                b.append("<details").append(open ? " open" : "").append("><summary>numbers</summary><table><thead><tr>");
                for (String h : f.header) {
                    b.append("<th>").append(Fmt.esc(h)).append("</th>");
                }
                b.append("</tr></thead><tbody>");
                for (List<String> row : f.rows) {
                    b.append("<tr>");
                    for (String c : row) {
                        b.append("<td>").append(Fmt.esc(c)).append("</td>");
                    }
                    b.append("</tr>");
                }
                b.append("</tbody></table></details>");
            }
            b.append("</figure>\n");
        }
        b.append("</section>\n");
    }
}
