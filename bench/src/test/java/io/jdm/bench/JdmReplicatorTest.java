package io.jdm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.SyncerConfig;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.SyncConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The in-JVM replicator measures the sync a task file runs: only the swept settings differ. */
class JdmReplicatorTest {
    private static final String TASK = """
            name: bench
            task-mode: incremental
            target-database: {host: 127.0.0.1, user: root}
            mysql-instances:
              - source-id: s1
                from: {host: 127.0.0.1, user: root}
                meta: {binlog-name: mysql-bin.000001, binlog-pos: 4}
            """;

    @Test
    void everySettingTheSweepDoesNotVaryIsTheTaskFilesDefault() {
        TaskConfig task = new TaskConfigLoader(Map.<String, String>of()::get).parse(TASK, Path.of("."));
        MySqlInstance instance = task.mysqlInstances().get(0);
        SyncerConfig fromTaskFile = task.syncer(instance);
        ConnectionSpec spec = ConnectionSpec.of("127.0.0.1", 3306, "root", "");

        SyncConfig c = new JdmReplicator(spec, spec, "db", "benchtask", 7, 33)
                .config(BinlogPosition.of("mysql-bin.000001", 4));

        assertEquals(7, c.syncer().workerCount());
        assertEquals(33, c.syncer().batch());
        assertEquals(fromTaskFile.queueSize(), c.syncer().queueSize());
        assertEquals(fromTaskFile.checkpointFlushInterval(), c.syncer().checkpointFlushInterval());
        assertEquals(fromTaskFile.enableGtid(), c.syncer().enableGtid());
        assertEquals(fromTaskFile.safeMode(), c.syncer().safeMode());
        assertEquals(fromTaskFile.safeModeDuration(), c.syncer().safeModeDuration());
        assertEquals(fromTaskFile.compact(), c.syncer().compact());
        assertEquals(fromTaskFile.multipleRows(), c.syncer().multipleRows());
        assertEquals(fromTaskFile.heartbeatInterval(), c.syncer().heartbeatInterval());
        assertEquals(task.metaSchema(), c.metaSchema());
        assertEquals(task.onlineDdl(), c.onlineDdl());
    }

    @Test
    void theTaskFilesDefaultsReachTheBenchsSync() {
        // DM's dm/config/task.go: checkpoint-flush-interval 30 s, safe-mode-duration twice that; jdm's own
        // defaults where they differ from DM's (queue-size 8192, compact and multiple-rows on); jdm
        // follows by GTID unless enable-gtid is false
        SyncConfig c = new JdmReplicator(ConnectionSpec.of("127.0.0.1", 3306, "root", ""),
                ConnectionSpec.of("127.0.0.1", 3307, "root", ""), "db", "benchtask", 16, 100)
                .config(BinlogPosition.of("mysql-bin.000001", 4));
        assertEquals(8192, c.syncer().queueSize());
        assertEquals(true, c.syncer().compact());
        assertEquals(true, c.syncer().multipleRows());
        assertEquals(Duration.ofSeconds(30), c.syncer().checkpointFlushInterval());
        assertEquals(Duration.ofSeconds(60), c.syncer().safeModeDuration());
        assertEquals(true, c.syncer().enableGtid());
        assertEquals(false, c.syncer().safeMode());
    }
}
