/** CDAT's report file ({@code NAME.p.cdat_report}) and its JSON form. */
package org.dsmscope.cdat.report;
