/**
 * The command-line options of CIAT and CDAT as picocli mixins, their conversion to the analyses' options, and the
 * summary lines, shared by {@code dsmscope ciat|cdat} (cli) and {@code dsmscope cluster ciat|cdat} (cluster) so that
 * an option is declared, checked and refused once (SPEC §1; options/README.md).
 */
package org.dsmscope.options;
