package io.jdm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.bench.workload.KeyDistribution;
import io.jdm.bench.workload.Mix;
import io.jdm.bench.workload.Payload;
import io.jdm.common.config.DeferIndexes;
import io.jdm.common.config.MydumperConfig;
import io.jdm.common.config.SyncerConfig;
import io.jdm.common.config.ValidatorConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchConfigTest {
    private static final Path BASE = Path.of("/reports");

    @Test
    void readsEveryKey() {
        BenchConfig c = BenchConfig.parse(String.join("\n",
                "name: s1",
                "dataset: {tables: 2, rows-per-table: 500, database: db1}",
                "source: {host: 127.0.0.1, port: 3307, user: u, password: secret}",
                "target: embedded",
                "workload: sysbench",
                "key-distribution: zipfian",
                "workload-threads: 3",
                "warm-up-runs: 0",
                "warm-up: 500ms",
                "duration: 2m",
                "repetitions: 5",
                "peers: false",
                "sweeps:",
                "  dump: {threads: [1, 2], rows: [0], statement-size: [2048]}",
                "  load: {pool-size: [2, 64], rows-per-statement: 100}",
                "  sync: {worker-count: [4], batch: [10, 100], mixes: [oltp_insert, oltp-read-write], mode: live}",
                "output: out"), BASE);
        assertEquals("s1", c.name());
        assertEquals("db1", c.database());
        assertEquals(2, c.tables());
        assertEquals(500, c.rowsPerTable());
        assertEquals(3307, c.source().port());
        assertEquals("secret", c.source().password());
        assertNull(c.target());
        assertEquals(BenchConfig.WorkloadKind.SYSBENCH, c.workload());
        assertEquals(KeyDistribution.ZIPFIAN, c.keys());
        assertEquals(Duration.ofMillis(500), c.warmUp());
        assertEquals(Duration.ofMinutes(2), c.duration());
        assertEquals(5, c.repetitions());
        assertFalse(c.peers());
        assertEquals(List.of(1, 2), c.dump().threads());
        assertEquals(List.of(100), c.load().rowsPerStatement());
        assertEquals(List.of(Mix.OLTP_INSERT, Mix.OLTP_READ_WRITE), c.sync().mixes());
        assertEquals(BenchConfig.SyncMode.LIVE, c.sync().mode());
        assertEquals(BASE.resolve("out"), c.output());
        assertFalse(c.toString().contains("secret"), c.toString());
    }

    @Test
    void defaultsNeedOnlyOneSweep() {
        BenchConfig c = BenchConfig.parse("sweeps: {sync: {}}", BASE);
        assertEquals(4, c.tables());
        assertTrue(c.peers());
        assertEquals(List.of(16), c.sync().workerCount());
        assertEquals(List.of(Mix.OLTP_WRITE_ONLY), c.sync().mixes());
        assertEquals(BenchConfig.SyncMode.BACKLOG, c.sync().mode());
        assertEquals(List.of(ValidatorConfig.Mode.NONE), c.sync().validation());
        assertNull(c.dump());
    }

    /** The sync's continuous validation is a swept setting: each mode is sampled, peers once per worker-count. */
    @Test
    void validationModesAreSwept() {
        BenchConfig c = BenchConfig.parse("sweeps: {sync: {worker-count: [8], validation: [none, full]}}", BASE);
        assertEquals(List.of(ValidatorConfig.Mode.NONE, ValidatorConfig.Mode.FULL), c.sync().validation());
        List<SyncSweeps.Setting> s = SyncSweeps.settings(c, true);
        assertEquals(2, s.size());
        assertEquals(java.util.Map.of("worker-count", 8L, "batch", 1000L, "validation", 0L), s.get(0).params());
        assertEquals(2L, s.get(1).params().get("validation"));
        assertTrue(s.get(0).peer());
        assertFalse(s.get(1).peer());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BenchConfig.parse(
                "sweeps: {sync: {validation: [thorough]}}", BASE));
        assertTrue(e.getMessage().contains("must be one of none, fast, full"), e.getMessage());
    }

    @Test
    void widePayloadIsADatasetSection() {
        BenchConfig c = BenchConfig.parse("dataset: {payload: {min-bytes: 4096, max-bytes: 16384}}\n"
                + "sweeps: {run: {}}", BASE);
        assertEquals(new Payload(4096, 16_384), c.payload());
        assertFalse(BenchConfig.parse("sweeps: {run: {}}", BASE).payload().present());
        assertMessage("dataset.payload.max-bytes: must be at least min-bytes (8000), got 100",
                "dataset: {payload: {min-bytes: 8000, max-bytes: 100}}\nsweeps: {run: {}}");
    }

    @Test
    void theTablesCharacterSetIsADatasetKey() {
        assertEquals("utf8mb4", BenchConfig.parse("sweeps: {run: {}}", BASE).payload().charset());
        BenchConfig c = BenchConfig.parse("dataset: {charset: latin1, payload: {min-bytes: 10, max-bytes: 20}}\n"
                + "sweeps: {run: {}}", BASE);
        assertEquals(new Payload(10, 20, "latin1"), c.payload());
        assertTrue(io.jdm.bench.workload.Sbtest.createTable("db", 1, c.payload()).endsWith("DEFAULT CHARSET=latin1"));
        assertMessage("dataset.charset: must be one of utf8mb4, latin1, utf8mb3, got \"koi8r\"",
                "dataset: {charset: koi8r}\nsweeps: {run: {}}");
    }

    @Test
    void sweptKeysHaveTheTaskFilesLimits() {
        assertEquals(List.of(300), BenchConfig.parse("sweeps: {load: {pool-size: 300}}", BASE).load().poolSize());
        assertEquals(List.of(1024), BenchConfig.parse("sweeps: {sync: {worker-count: 1024}}", BASE).sync().workerCount());
    }

    @Test
    void messagesNameTheKeyTheValueAndTheRule() {
        // a swept task-file key: the task file's message, with the element's index
        assertMessage("sweeps.sync.worker-count[1]: must be 1..1024, got 2000",
                "sweeps: {sync: {worker-count: [4, 2000]}}");
        assertMessage("sweeps.load.pool-size: must be 1..1024, got 1025", "sweeps: {load: {pool-size: 1025}}");
        assertMessage("sweeps.sync.batch: must be 1..10000, got 20000", "sweeps: {sync: {batch: 20000}}");
        assertMessage("sweeps.dump.rows[0]: must be an integer, got \"many\"", "sweeps: {dump: {rows: [many]}}");
        assertMessage("sweeps.sync.batch: must list at least one value", "sweeps: {sync: {batch: []}}");
        assertMessage("dataset.tabels: unknown key (did you mean tables?)", "dataset: {tabels: 2}\nsweeps: {sync: {}}");
        assertMessage("duration: must be a duration such as 60s or 5m, got \"ten\"", "duration: ten\nsweeps: {sync: {}}");
        assertMessage("duration: must be more than 0, got 0", "duration: 0\nsweeps: {sync: {}}");
        assertMessage("sweeps.sync.mixes[0]: must be oltp_insert, oltp_write_only or oltp_read_write, got \"oltp_delete\"",
                "sweeps: {sync: {mixes: [oltp_delete]}}");
        assertMessage("sweeps.sync.mode: must be one of backlog, live, got \"replay\"", "sweeps: {sync: {mode: replay}}");
        assertMessage("sweeps.sync.mod: unknown key (did you mean mode?)", "sweeps: {sync: {mod: live}}");
        assertMessage("workload: must be one of builtin, sysbench, got \"tpcc\"", "workload: tpcc\nsweeps: {sync: {}}");
        // the source and target: the task file's target-database
        assertMessage("source.host: required", "source: {port: 1, user: u}\nsweeps: {sync: {}}");
        assertMessage("source.port: must be 1..65535, got 0", "source: {host: h, port: 0, user: u}\nsweeps: {sync: {}}");
        assertMessage("target: must be embedded or a mapping of host, port, user and password, got \"remote\"",
                "target: remote\nsweeps: {sync: {}}");
        assertMessage("sweeps: must name at least one of dump, load, run, sync, verify", "name: x");
        assertMessage("name: must be letters, digits, _ and - only, got \"a b\"", "name: a b\nsweeps: {sync: {}}");
    }

    @Test
    void everyProblemIsALineOfTheMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BenchConfig.parse("repetitions: 0\nsweeps: {dump: {threads: [2000]}}", BASE));
        assertEquals(List.of("repetitions: must be 1..100, got 0", "sweeps.dump.threads[0]: must be 1..1024, got 2000"),
                e.getMessage().lines().toList());
    }

    @Test
    void verifySweepsJdmVerifysThreadsAndChunkRows() {
        BenchConfig.VerifySweep d = BenchConfig.parse("sweeps: {verify: {}}", BASE).verify();
        assertEquals(List.of(4), d.threads());
        assertEquals(List.of(50_000L), d.chunkRows());
        BenchConfig.VerifySweep v = BenchConfig.parse("sweeps: {verify: {threads: [1, 8], chunk-rows: 10000}}", BASE)
                .verify();
        assertEquals(List.of(1, 8), v.threads());
        assertEquals(List.of(10_000L), v.chunkRows());
        assertMessage("sweeps.verify.threads[1]: must be 1..256, got 300", "sweeps: {verify: {threads: [4, 300]}}");
        assertMessage("sweeps.verify.chunk-rows: must be 1..100000000, got 0", "sweeps: {verify: {chunk-rows: 0}}");
    }

    @Test
    void aSweptZeroThreadCountIsTheTaskFilesDefault() {
        // DM writes 0 for "the default", and so does the task file's reader
        assertEquals(List.of(4, SyncerConfig.DEFAULT_WORKER_COUNT),
                BenchConfig.parse("sweeps: {sync: {worker-count: [4, 0]}}", BASE).sync().workerCount());
    }

    @Test
    void loadsAFileAndResolvesOutputBesideIt() throws Exception {
        Path dir = Files.createTempDirectory("benchcfg");
        Path f = dir.resolve("b.yaml");
        Files.writeString(f, "sweeps: {dump: {}}\noutput: rep\n");
        assertEquals(dir.resolve("rep").toAbsolutePath(), BenchConfig.load(f).output());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BenchConfig.load(dir.resolve("missing.yaml")));
        assertEquals("no such file", e.getMessage());
    }

    @Test
    void shippedExamplesAreValid() throws Exception {
        Path conf = Path.of("..", "conf");
        List<Path> files;
        try (var listing = Files.list(conf)) {
            files = listing.filter(f -> f.getFileName().toString().matches("bench-.*\\.yaml")).sorted().toList();
        }
        assertTrue(files.size() >= 15, files.toString());
        for (Path f : files) {
            assertTrue(BenchConfig.load(f).repetitions() >= 1, f.toString());
        }
        for (String f : List.of("bench-load.yaml", "bench-sync.yaml", "bench-dump.yaml", "bench-run.yaml",
                "bench-run-defer.yaml")) {
            assertTrue(BenchConfig.load(conf.resolve(f)).repetitions() >= 3, f);
        }
        BenchConfig sync = BenchConfig.load(conf.resolve("bench-sync.yaml"));
        assertEquals(List.of(Mix.OLTP_WRITE_ONLY, Mix.OLTP_INSERT), sync.sync().mixes());
        assertEquals(BenchConfig.SyncMode.BACKLOG, sync.sync().mode());
        assertEquals(List.of(4, 8, 16, 32), sync.sync().workerCount());
        assertEquals(List.of(1, 4, 8), BenchConfig.load(conf.resolve("bench-dump.yaml")).verify().threads());
        BenchConfig.RunSweep run = BenchConfig.load(conf.resolve("bench-run.yaml")).run();
        assertEquals(new BenchConfig.RunSweep(List.of(2), List.of(100_000L), List.of(1_000_000L), List.of(4)), run);
        assertEquals(List.of(DeferIndexes.NEVER, DeferIndexes.LARGE_TABLES),
                BenchConfig.load(conf.resolve("bench-run-defer.yaml")).run().deferIndexes());
    }

    @Test
    void theRunSweepTakesTheDumpsAndTheLoadsKeysWithTheTaskFilesDefaults() {
        BenchConfig.RunSweep d = BenchConfig.parse("sweeps: {run: {}}", BASE).run();
        assertEquals(List.of(4), d.threads());
        assertEquals(List.of(MydumperConfig.DEFAULT_ROWS), d.rows());
        assertEquals(List.of(16), d.poolSize());
        BenchConfig.RunSweep r = BenchConfig.parse("sweeps: {run: {threads: [2, 4], rows: 1000, pool-size: [8]}}", BASE)
                .run();
        assertEquals(List.of(2, 4), r.threads());
        assertEquals(List.of(1000L), r.rows());
        assertEquals(List.of(8), r.poolSize());
        assertMessage("sweeps.run.pool-size[0]: must be 1..1024, got -1", "sweeps: {run: {pool-size: [-1]}}");
    }

    /** jdm's defer-indexes is swept like any key, read as the task file reads it; the peers have none. */
    @Test
    void theRunSweepTakesDeferIndexes() {
        BenchConfig.RunSweep d = BenchConfig.parse("sweeps: {run: {}}", BASE).run();
        assertEquals(List.of(DeferIndexes.LARGE_TABLES), d.deferIndexes());
        assertFalse(d.deferIndexesSwept());
        BenchConfig.RunSweep r = BenchConfig.parse("sweeps: {run: {defer-indexes: [false, auto, yes]}}", BASE).run();
        assertEquals(List.of(DeferIndexes.NEVER, DeferIndexes.LARGE_TABLES, DeferIndexes.ALWAYS), r.deferIndexes());
        assertTrue(r.deferIndexesSwept());
        assertMessage("sweeps.run.defer-indexes[0]: must be true, false or auto, got \"later\"",
                "sweeps: {run: {defer-indexes: [later]}}");
    }

    private static void assertMessage(String expected, String yaml) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BenchConfig.parse(yaml, BASE));
        assertEquals(expected, e.getMessage());
    }
}
