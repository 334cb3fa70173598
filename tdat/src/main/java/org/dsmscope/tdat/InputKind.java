package org.dsmscope.tdat;

/** What an input file of TDAT is, as detected from its first line that is not empty (module README "Inputs"). */
public enum InputKind {
    /** A CIAT event trace ({@code dsmscope ciat -ciat_events}): first line {@code # dsmscope-ciat-events 1}. */
    CIAT_EVENTS("ciat-events"),
    /** A CDAT general trace ({@code NAME.p.cdat_general.K}): {@code clock addr code proc node bank hnode status
     * sharing_list -1}. */
    CDAT_GENERAL("cdat-general"),
    /** A CDAT detailed trace ({@code NAME.p.cdat_detailed}): seven fields. */
    CDAT_DETAILED("cdat-detailed"),
    /** A file without any line that is not empty: no events. */
    EMPTY("empty");

    private final String label;

    InputKind(String label) {
        this.label = label;
    }

    /** The name the report and JSON give the kind. */
    public String label() {
        return label;
    }
}
