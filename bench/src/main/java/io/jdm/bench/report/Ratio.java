package io.jdm.bench.report;

import java.util.ArrayList;
import java.util.List;

/** jdm against one peer at the same setting: the medians of the sweep's main throughput and their ratio. */
record Ratio(String sweep, String mix, String setting, String peer, String metric, double jdm, double other) {

    /** NaN when the peer's median is not positive. */
    double ratio() {
        return other > 0 ? jdm / other : Double.NaN;
    }

    /** Every jdm group of one sweep against every peer group comparable to it, in measured order. */
    static List<Ratio> of(String sweep, List<Group> gs) {
        String metric = Columns.main(sweep).metric();
        List<Ratio> out = new ArrayList<>();
        for (Group jdm : gs.stream().filter(g -> g.sweep().equals(sweep) && g.tool().equals("jdm")).toList()) {
            for (Group peer : gs.stream().filter(g -> !g.tool().equals("jdm") && jdm.comparableTo(g)).toList()) {
                out.add(new Ratio(sweep, jdm.mix(), jdm.setting(), peer.tool(), metric, jdm.median(metric),
                        peer.median(metric)));
            }
        }
        return out;
    }
}
