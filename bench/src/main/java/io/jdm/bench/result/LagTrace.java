package io.jdm.bench.result;

import java.util.List;

/**
 * Replication lag sampled during one sync run: seconds since the run's start → seconds of lag.
 *
 * @param points pairs {elapsedSeconds, lagSeconds}
 */
public record LagTrace(String tool, String mix, String setting, int repetition, List<double[]> points) {
    public LagTrace {
        points = List.copyOf(points);
    }
}
