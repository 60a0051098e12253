package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.ConfigException;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.SyncerConfig;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.position.BinlogPosition;
import io.jdm.dump.DumpConfig;
import io.jdm.load.LoadConfig;
import io.jdm.sync.SyncConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A task file's values reach the units as they are; what the task file accepts, the units accept. */
class UnitConfigsTest {
    private static final String TASK = """
            name: t1
            task-mode: all
            target-database: {host: 127.0.0.1, user: root}
            mysql-instances:
              - source-id: s1
                server-id: 4711
                from: {host: 127.0.0.1, user: root}
            """;

    private static TaskConfig parse(String yaml) {
        return new TaskConfigLoader(Map.<String, String>of()::get).parse(yaml, Path.of("."));
    }

    private static MySqlInstance instance(TaskConfig task) {
        return task.mysqlInstances().get(0);
    }

    @Test
    void poolSizeUpToTheTaskFilesLimitReachesTheLoadAndBeyondItIsRefusedByKey() {
        TaskConfig task = parse(TASK + "loaders:\n  global:\n    pool-size: 300\n");
        assertEquals(300, UnitConfigs.load(task, instance(task)).poolSize());

        ConfigException e = assertThrows(ConfigException.class,
                () -> parse(TASK + "loaders:\n  global:\n    pool-size: 1025\n"));
        assertEquals(List.of("loaders.global.pool-size: must be 1..1024, got 1025"), e.problems());
    }

    @Test
    void withoutUnitSectionsEachUnitRunsWithItsOwnDefaultsWhichAreTheTaskFiles() {
        TaskConfig task = parse(TASK);
        DumpConfig dump = UnitConfigs.dump(task, instance(task));
        DumpConfig dumpDefaults = DumpConfig.defaults("t1", dump.source(), dump.outputDir());
        assertEquals(List.of(dumpDefaults.threads(), dumpDefaults.rows(), dumpDefaults.statementSize(),
                        dumpDefaults.chunkFileSizeMb(), dumpDefaults.consistency(), dumpDefaults.compress()),
                List.of(dump.threads(), dump.rows(), dump.statementSize(), dump.chunkFileSizeMb(),
                        dump.consistency(), dump.compress()));

        LoadConfig load = UnitConfigs.load(task, instance(task));
        LoadConfig loadDefaults = LoadConfig.of("t1", "s1", load.target(), load.dir());
        assertEquals(List.of(loadDefaults.poolSize(), loadDefaults.onDuplicate(), loadDefaults.metaSchema(),
                        loadDefaults.deferIndexes(), loadDefaults.disableForeignKeyChecks(),
                        loadDefaults.disableUniqueChecks(), loadDefaults.disableBinlog()),
                List.of(load.poolSize(), load.onDuplicate(), load.metaSchema(), load.deferIndexes(),
                        load.disableForeignKeyChecks(), load.disableUniqueChecks(), load.disableBinlog()));

        SyncConfig sync = UnitConfigs.sync(task, instance(task), BinlogPosition.of("mysql-bin.000001", 4));
        SyncConfig syncDefaults = SyncConfig.builder("t1", sync.source(), sync.target()).build();
        assertEquals(syncSettings(syncDefaults), syncSettings(sync));
    }

    /** Only a task that takes its own dump knows the source the load's dump came from, to ask its sql_mode. */
    @Test
    void theLoadKnowsTheSourceOnlyWhereTheTaskDumpsIt() {
        for (String mode : List.of("all", "full", "load", "load&sync")) {
            TaskConfig task = parse(TASK.replace("task-mode: all", "task-mode: \"" + mode + "\""));
            LoadConfig load = UnitConfigs.load(task, instance(task));
            boolean dumps = mode.equals("all") || mode.equals("full");
            assertEquals(dumps ? instance(task).from().toConnectionSpec() : null, load.source(), mode);
        }
    }

    @Test
    void everySyncerKeyReachesTheSync() {
        TaskConfig task = parse(TASK + """
                syncers:
                  global: {worker-count: 3, batch: 7, queue-size: 128, safe-mode: true, safe-mode-duration: 5s,
                           checkpoint-flush-interval: 2, compact: true, multiple-rows: true, enable-gtid: false,
                           heartbeat-interval: 4}
                """);
        SyncConfig s = UnitConfigs.sync(task, instance(task), BinlogPosition.of("mysql-bin.000001", 4));
        assertEquals(List.of(3, 7, 128, true, Duration.ofSeconds(5), true, true, Duration.ofSeconds(2), false,
                Duration.ofSeconds(4)), syncSettings(s));
        assertEquals(4711, s.serverId());
    }

    private static List<Object> syncSettings(SyncConfig c) {
        SyncerConfig s = c.syncer();
        return List.of(s.workerCount(), s.batch(), s.queueSize(), s.safeMode(), s.safeModeDuration(), s.compact(),
                s.multipleRows(), s.checkpointFlushInterval(), s.enableGtid(), s.heartbeatInterval());
    }

    @Test
    void theSyncStartsExactOnlyAtTheMetadataPositionOfADumpThatHeldASnapshot(@TempDir Path dir) throws Exception {
        TaskConfig task = parse(TASK + "mydumpers:\n  global:\n    dir: " + dir + "\n");
        BinlogPosition at = new BinlogPosition("mysql-bin.000003", 1234, "0-1-42");
        LocalDateTime t = LocalDateTime.of(2026, 12, 1, 10, 0);
        assertFalse(UnitConfigs.sync(task, instance(task), at).startExact(), "no metadata: not known exact");
        new DumpMetadata(t, t, at, "flush").writeTo(dir);
        assertTrue(UnitConfigs.sync(task, instance(task), at).startExact(), "a flush dump's own position");
        assertFalse(UnitConfigs.sync(task, instance(task), new BinlogPosition("mysql-bin.000003", 99, ""))
                .startExact(), "another position than the dump's");
        assertFalse(UnitConfigs.sync(task, instance(task), null).startExact(), "the task's meta");
        new DumpMetadata(t, t, at, "none").writeTo(dir);
        assertFalse(UnitConfigs.sync(task, instance(task), at).startExact(), "consistency none");
        new DumpMetadata(t, t, at, null).writeTo(dir);
        assertFalse(UnitConfigs.sync(task, instance(task), at).startExact(), "another tool's dump, no Consistency line");
    }
}
