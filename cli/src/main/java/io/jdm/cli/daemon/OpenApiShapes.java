package io.jdm.cli.daemon;

import io.jdm.common.config.BinlogMeta;
import io.jdm.common.config.BlockAllowListConfig;
import io.jdm.common.config.DatabaseConfig;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.MydumperConfig;
import io.jdm.common.config.RouteConfig;
import io.jdm.common.config.ShardMode;
import io.jdm.common.config.SyncerConfig;
import io.jdm.common.config.TaskConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The bodies of DM's OpenAPI ({@code dm/openapi/spec/dm.yaml}) made from what jdm already has, as
 * dm-master makes them: a {@code Task} and its {@code Source}s from the task file (as DM's
 * {@code SubTaskConfigsToOpenAPITask} and {@code SourceCfgToOpenAPISource} do), and the
 * {@code SubTaskStatus} and {@code SourceStatus} lists from the query-status answer of
 * {@link StatusProvider#status()} (as dm-master's {@code getTaskStatus} turns its workers'
 * query-status into them). So {@code /api/v1} and {@code /status} show the same numbers, in DM's two
 * spellings: snake_case names and int64 values as JSON numbers here, camelCase and strings there.
 *
 * <p>No secret: passwords are DM's {@code "******"}, a TLS setting shows as a {@code security} object
 * with its PEM contents empty (DM hides the source's the same way).
 */
final class OpenApiShapes {
    /** What DM shows for every password it returns ({@code ObfuscatedPasswordForFeedback}). */
    static final String PASSWORD = "******";

    private OpenApiShapes() {
    }

    /** DM's {@code Task}: the settings of the task for the sources this process runs. */
    static Map<String, Object> task(TaskConfig t) {
        MySqlInstance first = t.runInstances().get(0); // DM, too, reads its unit settings from one subtask
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", t.name());
        m.put("task_mode", t.taskMode().yamlName());
        if (t.shardMode() != ShardMode.NONE) {
            m.put("shard_mode", t.shardMode().yamlName());
        }
        m.put("meta_schema", t.metaSchema());
        t.timezone().ifPresent(z -> m.put("timezone", z));
        m.put("enhance_online_schema_change", t.onlineDdl().enabled());
        m.put("on_duplicate", t.loader(first).onDuplicate().name().toLowerCase(Locale.ROOT));
        m.put("target_config", target(t.targetDatabase()));
        m.put("table_migrate_rule", tableMigrateRules(t));
        m.put("source_config", sourceConfig(t, first));
        if (!t.ignoreCheckingItems().isEmpty()) {
            m.put("ignore_checking_items", t.ignoreCheckingItems());
        }
        return m;
    }

    private static Map<String, Object> target(DatabaseConfig db) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("host", db.host());
        m.put("port", db.port());
        m.put("user", db.user());
        m.put("password", PASSWORD);
        m.put("security", security(db));
        return m;
    }

    /** DM's {@code Security}, present when TLS is; the PEM contents are never shown. */
    private static Map<String, Object> security(DatabaseConfig db) {
        if (db.tls().isEmpty()) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ssl_ca_content", "");
        m.put("ssl_cert_content", "");
        m.put("ssl_key_content", "");
        return m;
    }

    /**
     * As DM lists them: each source's routes (source pattern, and the target when it renames), then
     * its block-allow-list's do-dbs and do-tables, each source/schema/table once.
     */
    private static List<Map<String, Object>> tableMigrateRules(TaskConfig t) {
        List<Map<String, Object>> rules = new ArrayList<>();
        Set<List<String>> seen = new LinkedHashSet<>();
        for (MySqlInstance i : t.runInstances()) {
            for (RouteConfig r : t.routes(i)) {
                addRule(rules, seen, i.sourceId(), r.schemaPattern(), r.tablePattern().orElse(""), r);
            }
        }
        for (MySqlInstance i : t.runInstances()) {
            BlockAllowListConfig ba = t.blockAllowList(i).orElse(null);
            if (ba == null) {
                continue;
            }
            ba.doDbs().forEach(db -> addRule(rules, seen, i.sourceId(), db, "", null));
            ba.doTables().forEach(tb -> addRule(rules, seen, i.sourceId(), tb.dbName(), tb.tblName(), null));
        }
        return rules;
    }

    private static void addRule(List<Map<String, Object>> rules, Set<List<String>> seen, String sourceId,
                                String schema, String table, RouteConfig route) {
        if (!seen.add(List.of(sourceId, schema, table))) {
            return;
        }
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("source_name", sourceId);
        source.put("schema", schema);
        source.put("table", table);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", source);
        if (route != null && !route.targetSchema().isEmpty()) {
            Map<String, Object> target = new LinkedHashMap<>();
            target.put("schema", route.targetSchema());
            route.targetTable().ifPresent(tb -> target.put("table", tb));
            m.put("target", target);
        }
        rules.add(m);
    }

    private static Map<String, Object> sourceConfig(TaskConfig t, MySqlInstance first) {
        MydumperConfig dump = t.mydumper(first);
        Map<String, Object> full = new LinkedHashMap<>();
        full.put("export_threads", dump.threads());
        full.put("import_threads", t.loader(first).poolSize());
        full.put("consistency", dump.consistency().label());
        full.put("import_mode", "logical"); // the load writes SQL through connections, as DM's logical mode
        SyncerConfig sync = t.syncer(first);
        Map<String, Object> incr = new LinkedHashMap<>();
        incr.put("repl_threads", sync.workerCount());
        incr.put("repl_batch", sync.batch());
        incr.put("safe_mode", sync.safeMode());
        List<Map<String, Object>> sources = new ArrayList<>();
        for (MySqlInstance i : t.runInstances()) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("source_name", i.sourceId());
            i.meta().ifPresent(meta -> putMeta(s, meta));
            sources.add(s);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("full_migrate_conf", full);
        m.put("incr_migrate_conf", incr);
        m.put("source_conf", sources);
        return m;
    }

    private static void putMeta(Map<String, Object> s, BinlogMeta meta) {
        meta.binlogName().ifPresent(n -> s.put("binlog_name", n));
        meta.binlogPos().ifPresent(p -> s.put("binlog_pos", p));
        meta.binlogGtid().ifPresent(g -> s.put("binlog_gtid", g));
    }

    /** DM's {@code Source} for one source this process runs; jdm has no relay log, so it is off. */
    static Map<String, Object> source(TaskConfig t, MySqlInstance i) {
        DatabaseConfig from = i.from();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source_name", i.sourceId());
        m.put("host", from.host());
        m.put("port", from.port());
        m.put("user", from.user());
        m.put("password", PASSWORD);
        m.put("enable_gtid", t.syncer(i).enableGtid());
        m.put("enable", true);
        i.flavor().ifPresent(f -> m.put("flavor", f.name().toLowerCase(Locale.ROOT)));
        m.put("security", security(from));
        Map<String, Object> relay = new LinkedHashMap<>();
        relay.put("enable_relay", false);
        relay.put("relay_binlog_gtid", "");
        relay.put("relay_binlog_name", "");
        relay.put("relay_dir", "");
        m.put("relay_config", relay);
        return m;
    }

    /**
     * DM's {@code SubTaskStatus} for each source of a query-status answer, as dm-master's
     * {@code getTaskStatus} makes it: the unit's section under {@code dump_status},
     * {@code load_status} or {@code sync_status}, and the errors as one {@code error_msg}.
     */
    static List<Map<String, Object>> subTaskStatuses(Map<String, Object> queryStatus) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object o : list(queryStatus.get("sources"))) {
            Map<String, Object> source = map(o);
            Map<String, Object> sourceStatus = map(source.get("sourceStatus"));
            for (Object st : list(source.get("subTaskStatus"))) {
                out.add(subTaskStatus(sourceStatus, map(st)));
            }
        }
        return out;
    }

    private static Map<String, Object> subTaskStatus(Map<String, Object> sourceStatus, Map<String, Object> st) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", text(st.get("name")));
        m.put("source_name", text(sourceStatus.get("source")));
        m.put("worker_name", text(sourceStatus.get("worker")));
        m.put("stage", text(st.get("stage")));
        m.put("unit", text(st.get("unit")));
        m.put("unresolved_ddl_lock_id", text(st.get("unresolvedDDLLockID")));
        if (st.get("load") != null) {
            m.put("load_status", loadStatus(map(st.get("load"))));
        }
        if (st.get("sync") != null) {
            m.put("sync_status", syncStatus(map(st.get("sync"))));
        }
        if (st.get("dump") != null) {
            m.put("dump_status", dumpStatus(map(st.get("dump"))));
        }
        String errors = errorMsg(st.get("result"));
        if (errors.isEmpty()) {
            errors = errorMsg(sourceStatus.get("result"));
        }
        if (!errors.isEmpty()) {
            m.put("error_msg", errors);
        }
        return m;
    }

    private static Map<String, Object> loadStatus(Map<String, Object> l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("finished_bytes", int64(l.get("finishedBytes")));
        m.put("total_bytes", int64(l.get("totalBytes")));
        m.put("progress", text(l.get("progress")));
        m.put("meta_binlog", text(l.get("metaBinlog")));
        m.put("meta_binlog_gtid", text(l.get("metaBinlogGTID")));
        m.put("bps", int64(l.get("bps")));
        return m;
    }

    private static Map<String, Object> syncStatus(Map<String, Object> s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total_events", int64(s.get("totalEvents")));
        m.put("total_tps", int64(s.get("totalTps")));
        m.put("recent_tps", int64(s.get("recentTps")));
        m.put("master_binlog", text(s.get("masterBinlog")));
        m.put("master_binlog_gtid", text(s.get("masterBinlogGtid")));
        m.put("syncer_binlog", text(s.get("syncerBinlog")));
        m.put("syncer_binlog_gtid", text(s.get("syncerBinlogGtid")));
        m.put("blocking_ddls", list(s.get("blockingDDLs")));
        List<Map<String, Object>> groups = new ArrayList<>();
        for (Object o : list(s.get("unresolvedGroups"))) {
            Map<String, Object> g = map(o);
            Map<String, Object> group = new LinkedHashMap<>();
            group.put("target", text(g.get("target")));
            group.put("ddl_list", list(g.get("DDLs")));
            group.put("first_location", text(g.get("firstLocation")));
            group.put("synced", list(g.get("synced")));
            group.put("unsynced", list(g.get("unsynced")));
            groups.add(group);
        }
        m.put("unresolved_groups", groups);
        m.put("synced", Boolean.TRUE.equals(s.get("synced")));
        m.put("binlog_type", text(s.get("binlogType")));
        m.put("seconds_behind_master", int64(s.get("secondsBehindMaster")));
        // bytes read from the source's connection and from a relay log: jdm counts neither
        m.put("io_total_bytes", 0);
        m.put("dump_io_total_bytes", 0);
        return m;
    }

    private static Map<String, Object> dumpStatus(Map<String, Object> d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total_tables", int64(d.get("totalTables")));
        m.put("completed_tables", number(d.get("completedTables")));
        m.put("finished_bytes", number(d.get("finishedBytes")));
        m.put("finished_rows", number(d.get("finishedRows")));
        m.put("estimate_total_rows", number(d.get("estimateTotalRows")));
        m.put("bps", int64(d.get("bps")));
        m.put("progress", text(d.get("progress")));
        return m;
    }

    /** As dm-master joins a {@code ProcessResult}'s errors into one {@code error_msg}: one line each. */
    private static String errorMsg(Object result) {
        StringBuilder sb = new StringBuilder();
        for (Object o : list(map(result).get("errors"))) {
            Map<String, Object> e = map(o);
            sb.append(String.format(Locale.ROOT, "[code=%d:class=%s:scope=%s:level=%s], Message: %s",
                    int64(e.get("ErrCode")), text(e.get("ErrClass")), text(e.get("ErrScope")),
                    text(e.get("ErrLevel")), text(e.get("Message"))));
            if (!text(e.get("RawCause")).isEmpty()) {
                sb.append(", RawCause: ").append(text(e.get("RawCause")));
            }
            if (!text(e.get("Workaround")).isEmpty()) {
                sb.append(", Workaround: ").append(text(e.get("Workaround")));
            }
            sb.append(".\n");
        }
        return sb.toString();
    }

    /** DM's {@code SourceStatus} of each source of a query-status answer; jdm has no relay status. */
    static List<Map<String, Object>> sourceStatuses(Map<String, Object> queryStatus) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object o : list(queryStatus.get("sources"))) {
            Map<String, Object> sourceStatus = map(map(o).get("sourceStatus"));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source_name", text(sourceStatus.get("source")));
            m.put("worker_name", text(sourceStatus.get("worker")));
            String errors = errorMsg(sourceStatus.get("result"));
            if (!errors.isEmpty()) {
                m.put("error_msg", errors);
            }
            out.add(m);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static List<Object> list(Object o) {
        return o instanceof List<?> l ? new ArrayList<>(l) : List.of();
    }

    private static String text(Object o) {
        return o == null ? "" : o.toString();
    }

    /** query-status prints int64 as a string (jsonpb); the OpenAPI as a number. */
    private static long int64(Object o) {
        if (o instanceof Number n) {
            return n.longValue();
        }
        return o == null || o.toString().isEmpty() ? 0 : Long.parseLong(o.toString());
    }

    private static Number number(Object o) {
        return o instanceof Number n ? n : int64(o);
    }
}
