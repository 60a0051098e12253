package io.jdm.sync;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import java.time.Duration;

/**
 * A sync unit in its own JVM, for the kill -9 fault test. Arguments: source host, source port,
 * target host, target port, task, worker-count, database, start file, start pos, and optionally
 * {@code gtid} and the start's GTID set to follow the source by GTID.
 */
public final class SyncChild {
    private SyncChild() {
    }

    public static void main(String[] args) {
        String db = args[6];
        SyncConfig cfg = SyncConfig.builder(args[4], ConnectionSpec.of(args[0], Integer.parseInt(args[1]), "root", ""),
                        ConnectionSpec.of(args[2], Integer.parseInt(args[3]), "root", ""))
                .workerCount(Integer.parseInt(args[5])).batch(20).serverId(7001).metaSchema("jdm_meta_fault")
                .start(new BinlogPosition(args[7], Long.parseLong(args[8]), args.length > 10 ? args[10] : ""))
                .compact(true).multipleRows(true)
                .safeModeDuration(Duration.ZERO).enableGtid(args.length > 9 && args[9].equals("gtid"))
                .tableFilter((d, t) -> d.equals(db)).build();
        SyncUnit unit = new SyncUnit(cfg);
        try {
            unit.start();
            System.out.println("SYNC-CHILD-STARTED");
            System.out.flush();
            unit.awaitTermination();
        } catch (RuntimeException e) {
            System.out.println("SYNC-CHILD-FAILED " + e.getMessage());
            System.exit(2);
        }
        unit.failure().ifPresent(f -> {
            System.out.println("SYNC-CHILD-FAILED " + f.getMessage());
            System.exit(2);
        });
    }
}
