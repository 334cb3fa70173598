/**
 * The CDAT configuration file (seed 000 §5.1, SPEC §6): {@link org.dsmscope.cdat.config.CdatConfig} reads, checks,
 * builds and writes the machine a CDAT run simulates; {@link org.dsmscope.cdat.config.CacheGeometry},
 * {@link org.dsmscope.cdat.config.PagePolicy}, {@link org.dsmscope.cdat.config.Replacement} and
 * {@link org.dsmscope.cdat.config.ThreadMap} are its parts. The format is documented in {@code cdat/README.md},
 * section "Configuration file".
 */
package org.dsmscope.cdat.config;
