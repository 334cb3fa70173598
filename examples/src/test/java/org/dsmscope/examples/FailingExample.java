package org.dsmscope.examples;

/** A test-only program whose self-check always fails, to see the exit status Cli gives a failed run. */
public final class FailingExample {
    private FailingExample() {
    }

    /** Runs {@code FailingExample [THREADS [SIZE]]}. */
    public static void main(String[] args) {
        Cli.main("FailingExample", args, 3, (threads, size) -> Result.checked("42", "", "always wrong"));
    }
}
