/**
 * {@code jdm demo}: the whole job on an embedded default. Real MariaDB source and target start
 * on loopback, a sysbench-shaped dataset is created, task-mode {@code all} runs while a write
 * workload keeps changing the source, and verify proves the target equal once the lag is zero.
 */
package io.jdm.cli.demo;
