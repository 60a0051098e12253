package io.jdm.dump;

import io.jdm.common.jdbc.ConnectionSpec;
import java.nio.file.Path;

/** Runs one dump in its own (small-heap) JVM for {@link StreamingSmallHeapIT}: host port dir database. */
public final class StreamingDumpMain {
    private StreamingDumpMain() {
    }

    public static void main(String[] args) {
        String db = args[3];
        DumpConfig config = DumpConfig.defaults("stream", ConnectionSpec.of(args[0], Integer.parseInt(args[1]), "root", ""),
                Path.of(args[2])).withThreads(1).withRows(0).withChunkFileSizeMb(0)
                .withTableFilter((d, t) -> d.equals(db));
        DumpResult r = new DumpUnit(config).run();
        System.out.println("ROWS " + r.rows() + " BYTES " + r.bytes() + " MAXHEAP " + Runtime.getRuntime().maxMemory());
    }
}
