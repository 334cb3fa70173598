/** The on-the-fly analysis sink interface (SPEC §1): the only agent type the analyses' class loader sees. */
package org.dsmscope.agent.sink;
