/**
 * Verify benchmark: how fast {@code jdm verify} checks the sysbench-shaped dataset against how fast
 * the dump unit reads it, on the same machine and data, medians and their ratio printed.
 */
package io.jdm.bench.verify;
