package org.dsmscope.dsm;

/** Segment types of seed 002 §3.1: how a segment is accessed. */
public enum SegmentType {
    /** Randomly addressable bytes (read and write by offset). */
    RANDOM,
    /** Read at the front, write by appending (a shared log / queue). */
    SEQUENTIAL,
    /** Accessed by key → value pairs. */
    ASSOCIATIVE
}
