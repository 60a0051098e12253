/**
 * What a bench run measured, between the sweeps that measure it and the reports that render it:
 * one {@link io.jdm.bench.result.Sample} per timed run, the lag traces, and the statistics over
 * them.
 */
package io.jdm.bench.result;
