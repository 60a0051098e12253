package io.jdm.common.config;

import static io.jdm.common.config.Tasks.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Named config, else "global", else defaults; then the instance's thread overrides. */
class EffectiveConfigTest {
    private static final String TWO_SOURCES = """
            name: shop
            task-mode: all
            target-database: {host: t, user: u}
            mydumpers:
              global: {threads: 2, rows: 0, dir: /data/dump}
              big: {threads: 16, consistency: lock, compress: zstd, where: "id > 0"}
            loaders:
              global: {pool-size: 8, on-duplicate: replace}
            syncers:
              fast: {worker-count: 64, batch: 500, queue-size: 4096, safe-mode-duration: 1m30s}
            block-allow-list:
              bw: {do-dbs: [shop]}
            routes:
              r1: {schema-pattern: "shop_*", target-schema: shop}
              r2: {schema-pattern: "a", table-pattern: "t_*", target-schema: b, target-table: t}
            filters:
              f1: {schema-pattern: "*", events: [truncate table], action: Error}
            mysql-instances:
              - source-id: s1
                from: {host: h1, user: u}
                block-allow-list: bw
                route-rules: [r2, r1]
                filter-rules: [f1]
                syncer-config-name: fast
                syncer-thread: 4
              - source-id: s2
                from: {host: h2, user: u}
                mydumper-config-name: big
                mydumper-thread: 3
                loader-thread: 2
            """;

    private final TaskConfig task = parse(TWO_SOURCES);
    private final MySqlInstance s1 = task.instance("s1");
    private final MySqlInstance s2 = task.instance("s2");

    /** A process run for some sources: those run, the whole task stays (per-source dump dirs depend on it). */
    @Test
    void runSourceIdsPickTheInstancesRunAndKeepTheWholeTask() {
        assertEquals(List.of(s1, s2), task.runInstances(), "none named: all of them");
        TaskConfig only2 = task.withRunSourceIds(List.of("s2"));
        assertEquals(List.of(s2), only2.runInstances());
        assertEquals(List.of(s1, s2), only2.mysqlInstances());
        assertEquals(task.mydumper(s2).dir(), only2.mydumper(s2).dir());
        assertEquals(Path.of("/data/dump/s1"), only2.mydumper(s1).dir());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> task.withRunSourceIds(List.of("s1", "s9")));
        assertEquals("task shop has no source s9", e.getMessage());
    }

    @Test
    void globalIsUsedWhenTheInstanceNamesNoConfig() {
        MydumperConfig d = task.mydumper(s1);
        assertEquals(2, d.threads());
        assertEquals(0, d.rows());
        assertEquals(Path.of("/data/dump/s1"), d.dir(), "two sources: one sub-directory each");
        assertEquals(8, task.loader(s1).poolSize());
        assertEquals(OnDuplicate.REPLACE, task.loader(s1).onDuplicate());
    }

    @Test
    void namedConfigWithOverridesApplied() {
        MydumperConfig d = task.mydumper(s2);
        assertEquals(3, d.threads(), "mydumper-thread overrides threads");
        assertEquals(Consistency.LOCK, d.consistency());
        assertEquals(Compression.ZSTD, d.compress());
        assertEquals(Optional.of("id > 0"), d.where());
        assertEquals(Path.of("./dumped_data.shop/s2"), d.dir(), "default dir, per source");
        assertEquals(2, task.loader(s2).poolSize(), "loader-thread overrides pool-size");

        SyncerConfig s = task.syncer(s1);
        assertEquals(4, s.workerCount(), "syncer-thread overrides worker-count");
        assertEquals(500, s.batch());
        assertEquals(4096, s.queueSize());
        assertEquals(Duration.ofSeconds(90), s.safeModeDuration());
    }

    @Test
    void defaultsWhenThereIsNoGlobal() {
        assertEquals(SyncerConfig.defaults(), task.syncer(s2));
        TaskConfig single = parse(Tasks.MINIMAL);
        MySqlInstance only = single.mysqlInstances().get(0);
        assertEquals(MydumperConfig.defaults("t1"), single.mydumper(only));
        assertEquals(Path.of("./dumped_data.t1"), single.mydumper(only).dir(), "one source: no sub-directory");
        assertEquals(LoaderConfig.defaults().withDir(Path.of("./dumped_data.t1")), single.loader(only));
    }

    @Test
    void loaderReadsWhereTheDumpWrote() {
        assertEquals(Optional.of(task.mydumper(s1).dir()), task.loader(s1).dir());
        assertEquals(Optional.of(task.mydumper(s2).dir()), task.loader(s2).dir());
    }

    @Test
    void rulesOfAnInstanceInTheOrderItListsThem() {
        assertEquals(List.of("shop"), task.blockAllowList(s1).orElseThrow().doDbs());
        assertEquals(List.of("r2", "r1"), task.routes(s1).stream().map(RouteConfig::name).toList());
        assertEquals(List.of("f1"), task.filters(s1).stream().map(FilterConfig::name).toList());
        assertEquals(Optional.empty(), task.blockAllowList(s2));
        assertEquals(List.of(), task.routes(s2));
    }

    /** DM's inline form: mysql-instances[].loader and the like; null (dmctl's get-task output) is not set. */
    @Test
    void anInstancesOwnSettingsComeBeforeGlobalAndItsThreadOverridesAfter() {
        TaskConfig t = parse("""
                name: shop
                task-mode: all
                target-database: {host: t, user: u}
                loaders:
                  global: {pool-size: 8}
                mysql-instances:
                  - source-id: s1
                    from: {host: h1, user: u}
                    mydumper: null
                    loader: {pool-size: 4, dir: ./dumped}
                    syncer: {worker-count: 2, batch: 50}
                    syncer-thread: 3
                  - source-id: s2
                    from: {host: h2, user: u}
                    loader: null
                """);
        MySqlInstance a = t.instance("s1");
        assertEquals(4, t.loader(a).poolSize());
        assertEquals(Path.of("./dumped.shop/s1"), t.loader(a).dir().orElseThrow(), "DM dumps into <dir>.<task>");
        assertEquals(t.loader(a).dir().orElseThrow(), t.mydumper(a).dir());
        assertEquals(List.of(3, 50), List.of(t.syncer(a).workerCount(), t.syncer(a).batch()));
        assertEquals(MydumperConfig.DEFAULT_THREADS, t.mydumper(a).threads());
        assertEquals(8, t.loader(t.instance("s2")).poolSize(), "loader: null is not set, so global applies");
    }

    @Test
    void unknownSourceId() {
        assertThrows(IllegalArgumentException.class, () -> task.instance("s3"));
    }
}
