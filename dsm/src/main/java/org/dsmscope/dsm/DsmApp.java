package org.dsmscope.dsm;

/** A program run by every member (SPMD): {@code dsmscope dsm run -- CLASS ARGS} instantiates CLASS per member. */
public interface DsmApp {
    /** Runs the member's part; {@code dsm.rank()} tells which. Throw to fail the member. */
    void run(Dsm dsm, String[] args) throws Exception;
}
