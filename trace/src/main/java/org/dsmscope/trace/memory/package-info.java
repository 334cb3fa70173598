/** The memory usage file shared by CIAT (writer) and CDAT's page policies (reader), seed 000 §4.5. */
package org.dsmscope.trace.memory;
