package io.jdm.bench.report;

import io.jdm.bench.result.Sample;
import io.jdm.bench.result.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The repetitions of one tool at one setting, with their median and spread. */
record Group(String sweep, String tool, String mix, Map<String, Long> params, List<Sample> samples) {

    /** Samples grouped by sweep, tool, mix and setting, in the order they were first measured. */
    static List<Group> of(List<Sample> samples) {
        Map<String, List<Sample>> byKey = new LinkedHashMap<>();
        for (Sample s : samples) {
            byKey.computeIfAbsent(s.sweep() + "|" + s.tool() + "|" + s.mix() + "|" + s.setting(),
                    k -> new ArrayList<>()).add(s);
        }
        List<Group> out = new ArrayList<>();
        byKey.values().forEach(l -> out.add(new Group(l.get(0).sweep(), l.get(0).tool(), l.get(0).mix(),
                l.get(0).params(), List.copyOf(l))));
        return out;
    }

    double median(String metric) {
        return Stats.median(values(metric));
    }

    double min(String metric) {
        return values(metric).stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    double max(String metric) {
        return values(metric).stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    String setting() {
        return samples.get(0).setting();
    }

    /** True when {@code peer} ran at this setting: same sweep and mix, and each of its params equal here. */
    boolean comparableTo(Group peer) {
        return sweep.equals(peer.sweep) && mix.equals(peer.mix)
                && peer.params.entrySet().stream().allMatch(e -> e.getValue().equals(params.get(e.getKey())));
    }

    private List<Double> values(String metric) {
        List<Double> v = new ArrayList<>();
        for (Sample s : samples) {
            double d = s.metric(metric);
            if (!Double.isNaN(d)) {
                v.add(d);
            }
        }
        return v;
    }
}
