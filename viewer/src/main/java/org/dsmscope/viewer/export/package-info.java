/**
 * Exports of replayed trace sets to formats other tools display: {@link org.dsmscope.viewer.export.ChromeTrace}
 * writes the Chrome trace-event JSON that Perfetto (ui.perfetto.dev) and chrome://tracing open (SPEC §9).
 */
package org.dsmscope.viewer.export;
