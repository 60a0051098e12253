/**
 * Dump benchmark: jdm's dump unit against mydumper and {@code mariadb-dump --single-transaction} on
 * one sysbench-shaped dataset, same threads, rows and statement size, medians and ratios printed.
 */
package io.jdm.bench.dump;
