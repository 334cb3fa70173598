/**
 * The {@code dsmscope} command line: one picocli command with a subcommand per tool. The only module that
 * wires every other module together.
 */
package org.dsmscope.cli;
