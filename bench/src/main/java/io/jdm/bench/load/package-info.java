/**
 * The load benchmark: one sysbench-shaped dataset written once as a dump directory (and as
 * tab-separated files with the same rows), then loaded into the same target by jdm, by
 * {@code myloader} with the same thread count and files, and by one {@code LOAD DATA LOCAL
 * INFILE} stream per table (the target's own bulk ceiling). Prints MB/s of dump data, rows/s and
 * the ratios, and a pool-size by rows-per-statement sweep.
 */
package io.jdm.bench.load;
