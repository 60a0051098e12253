/**
 * The {@code jdm} command: one picocli subcommand per unit or job, and the single place that
 * turns a failure into one line and an exit code (0 ok, 1 a check/verify/unit failed, 2 usage or
 * configuration error). Stack traces appear only with {@code --verbose}.
 */
package io.jdm.cli;
