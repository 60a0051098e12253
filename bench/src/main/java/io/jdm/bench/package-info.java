/**
 * Benchmark mode, {@code jdm bench BENCH.yaml}: a sysbench-shaped dataset on the source, then the
 * sweeps the file names, each setting warmed up and repeated, with the peer tools found on the
 * machine measured in the same run on the same data. Every jdm sample is a whole {@code jdm} process
 * (runner process); runner in-jvm runs the units in this JVM instead, a profiling aid that the
 * report's title names as such. There is no other harness.
 *
 * <pre>
 *  BenchConfig ─► BenchRunner ─► prepare sbtest1..N on the source
 *                     │
 *                     ├─ DumpSweeps: jdm dump | mydumper | mariadb-dump   (threads × rows × statement-size)
 *                     ├─ LoadSweeps: jdm load | myloader                  (pool-size × rows per statement)
 *                     │              | LOAD DATA LOCAL INFILE, a stream per table (per rows per statement)
 *                     ├─ RunSweeps: jdm run (task-mode full) | mydumper then myloader
 *                     │              (threads × rows × statement-size × pool-size; processes only)
 *                     ├─ VerifySweeps: jdm verify                        (threads × chunk-rows)
 *                     └─ SyncSweeps: jdm sync | native parallel replication (worker-count × batch × mix)
 *                              backlog (default, SyncBacklog): workload alone P→E, then per sample
 *                                restore target to P ─► replicate P→E, timed ─► checksum
 *                              live: workload + heartbeat ─► lag samples ─► catch-up ─► checksum
 *                     ▼
 *         result/BenchResults ─► report/ (report.md, report.html with SVG charts, samples.csv, lag.csv)
 * </pre>
 */
package io.jdm.bench;
