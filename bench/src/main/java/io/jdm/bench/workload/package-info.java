/**
 * A built-in, sysbench-shaped workload so benchmarks and the demo run where sysbench is not
 * installed: the oltp_common schema ({@code sbtest1..N}: id, k, c char(120), pad char(60)), its
 * value shapes, a parallel prepare, and the oltp_insert / oltp_write_only / oltp_read_write
 * transaction mixes with uniform or zipfian keys.
 */
package io.jdm.bench.workload;
