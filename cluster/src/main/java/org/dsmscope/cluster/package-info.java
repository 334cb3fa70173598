/**
 * CIAT and CDAT in partitions on an Apache Spark cluster (SPEC §4 "Partitioning", cluster/README.md): the prescan
 * and plan on the driver ({@link org.dsmscope.cluster.Driver}), one Spark task per partition replaying its share
 * ({@link org.dsmscope.cluster.PartitionJob}), the partitions' compact results merged on the driver into the serial
 * run's outputs. The only module that depends on Spark; {@code dsmscope cluster} runs its shaded jar in a child JVM.
 */
package org.dsmscope.cluster;
