/**
 * {@code jdm check}: DM's precheck. Each {@link io.jdm.cli.check.Check} looks at one thing on one
 * server and answers pass, warn or fail with a one-line reason and the fix; {@link
 * io.jdm.cli.check.Prechecker} runs the ones the task mode needs and skips those listed in
 * {@code ignore-checking-items}.
 */
package io.jdm.cli.check;
