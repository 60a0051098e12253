package io.jdm.common.config;

import static io.jdm.common.config.Tasks.MINIMAL;
import static io.jdm.common.config.Tasks.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TaskConfigLoaderTest {
    @Test
    void defaultsOfAMinimalTask() {
        TaskConfig t = parse(MINIMAL);
        assertEquals("t1", t.name());
        assertEquals(TaskMode.ALL, t.taskMode());
        assertEquals("jdm_meta", t.metaSchema());
        assertEquals("127.0.0.1:8261", t.statusAddr());
        assertEquals(List.of(), t.ignoreCheckingItems());
        assertEquals(false, t.caseSensitive());
        assertEquals(Optional.empty(), t.timezone());
        DatabaseConfig target = t.targetDatabase();
        assertEquals(3306, target.port());
        assertEquals(Secret.EMPTY, target.password());
        assertEquals(Duration.ofSeconds(10), target.connectTimeout());
        assertEquals(OptionalLong.empty(), target.maxAllowedPacket());
        assertTrue(target.tls().isEmpty());
        assertEquals(Map.of(), t.mydumpers());
    }

    /** auto (the default) defers the indexes of large tables; true and false, in YAML 1.1's words too, all or none. */
    @Test
    void deferIndexesIsABooleanOrAuto() {
        MySqlInstance i = parse(MINIMAL).mysqlInstances().get(0);
        assertEquals(DeferIndexes.LARGE_TABLES, parse(MINIMAL).loader(i).deferIndexes());
        Map<String, DeferIndexes> written = Map.of("auto", DeferIndexes.LARGE_TABLES, "AUTO",
                DeferIndexes.LARGE_TABLES, "true", DeferIndexes.ALWAYS, "yes", DeferIndexes.ALWAYS, "false",
                DeferIndexes.NEVER, "off", DeferIndexes.NEVER);
        written.forEach((text, defer) -> assertEquals(defer, parse(MINIMAL + "loaders:\n  global:\n    defer-indexes: "
                + text + "\n").loader(i).deferIndexes(), text));
        assertEquals(List.of("loaders.global.defer-indexes: must be true, false or auto, got \"later\""),
                Tasks.problems(MINIMAL + "loaders:\n  global:\n    defer-indexes: later\n"));
    }

    @Test
    void readsEverySection() {
        TaskConfig t = parse("""
                name: full-1
                task-mode: incremental
                meta-schema: dm_meta
                status-addr: 0.0.0.0:9000
                case-sensitive: true
                timezone: Asia/Shanghai
                ignore-checking-items: [binlog_row_image, auto_increment_ID]
                target-database:
                  host: tidb
                  port: 4000
                  user: root
                  password: "p"
                  max-allowed-packet: 67108864
                  connect-timeout: 5
                  session:
                    sql_mode: "ANSI_QUOTES,NO_ZERO_DATE"
                    tidb_txn_mode: optimistic
                block-allow-list:
                  bw:
                    do-dbs: ["~^shop_\\\\d+$"]
                    ignore-dbs: [tmp]
                    do-tables: [{db-name: "shop_*", tbl-name: "orders"}]
                    ignore-tables: [{db-name: shop_1, tbl-name: "log?"}]
                routes:
                  r: {schema-pattern: "shop_*", table-pattern: "orders", target-schema: shop, target-table: orders_all}
                filters:
                  f:
                    schema-pattern: "shop_*"
                    events: ["All DML", "create schema"]
                    sql-pattern: ["^ALTER"]
                    action: ignore
                syncers:
                  global: {safe-mode: true, compact: true, multiple-rows: true, enable-gtid: false,
                           checkpoint-flush-interval: 5, heartbeat-interval: 3, safe-mode-duration: 500ms}
                mysql-instances:
                  - source-id: s-1
                    from: {host: h, user: u}
                    server-id: 4294967295
                    meta: {binlog-name: mysql-bin.000012, binlog-pos: 1234, binlog-gtid: "uuid:1-5"}
                """);
        assertEquals(TaskMode.INCREMENTAL, t.taskMode());
        assertEquals("dm_meta", t.metaSchema());
        assertEquals(Optional.of("Asia/Shanghai"), t.timezone());
        assertEquals(List.of("binlog_row_image", "auto_increment_ID"), t.ignoreCheckingItems());
        assertEquals(OptionalLong.of(67108864), t.targetDatabase().maxAllowedPacket());
        assertEquals(List.of("sql_mode", "tidb_txn_mode"), List.copyOf(t.targetDatabase().session().keySet()));
        var bw = t.blockAllowList().get("bw");
        assertEquals(List.of("~^shop_\\d+$"), bw.doDbs());
        assertEquals(List.of(new BlockAllowListConfig.TableRule("shop_1", "log?")), bw.ignoreTables());
        var r = t.routes().get("r");
        assertEquals(Optional.of("orders"), r.tablePattern());
        assertEquals(Optional.of("orders_all"), r.targetTable());
        var f = t.filters().get("f");
        assertEquals(List.of(EventType.ALL_DML, EventType.CREATE_DATABASE), f.events());
        assertEquals(Action.IGNORE, f.action());
        var s = t.syncers().get("global");
        assertEquals(Duration.ofMillis(500), s.safeModeDuration());
        assertEquals(Duration.ofSeconds(5), s.checkpointFlushInterval());
        assertEquals(false, s.enableGtid());
        var i = t.mysqlInstances().get(0);
        assertEquals(OptionalLong.of(4294967295L), i.serverId());
        var meta = i.meta().orElseThrow();
        assertEquals(Optional.of("mysql-bin.000012"), meta.binlogName());
        assertEquals(OptionalLong.of(1234), meta.binlogPos());
        assertEquals(Optional.of("uuid:1-5"), meta.binlogGtid());
    }

    @Test
    void nullValuesMeanNotSet() {
        TaskConfig t = parse(MINIMAL + "syncers:\n  global:\n    batch:\n    worker-count: ~\n");
        assertEquals(SyncerConfig.defaults(), t.syncers().get("global"));
    }
}
