/** JMH benchmarks of every hot path; run by hand from target/benchmarks.jar, never by mvn verify. */
package org.dsmscope.bench;
