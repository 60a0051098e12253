package io.jdm.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schemas of DM's OpenAPI that jdm answers with, copied from dm-master's
 * {@code dm/openapi/spec/dm.yaml} (components/schemas): each property with its type, required ones
 * marked {@code !}, nullable ones {@code ?}. {@link #assertShape} checks an answer against them: no
 * name DM's schema lacks, every required one present, every value of DM's type, nested objects too.
 *
 * <p>Types: {@code str}, {@code int} (a JSON integer, not a string as jsonpb prints int64),
 * {@code num}, {@code bool}, {@code [str]} (a list of strings), {@code obj} (any object),
 * {@code Schema} and {@code [Schema]}.
 */
public final class DmOpenApiSpec {
    private static final Map<String, List<String>> SCHEMAS = new LinkedHashMap<>();

    static {
        schema("ErrorWithMessage", "error_msg!:str", "error_code!:int");
        schema("GetTaskListResponse", "total!:int", "data!:[Task]");
        schema("GetTaskStatusResponse", "total!:int", "data!:[SubTaskStatus]");
        schema("GetSourceListResponse", "total!:int", "data!:[Source]");
        schema("GetSourceStatusResponse", "total!:int", "data!:[SourceStatus]");
        schema("Task", "name!:str", "task_mode!:str", "shard_mode:str", "strict_optimistic_shard_mode:bool",
                "meta_schema:str", "timezone:str", "enhance_online_schema_change!:bool", "on_duplicate!:str",
                "target_config!:TaskTargetDataBase", "binlog_filter_rule:obj",
                "table_migrate_rule!:[TaskTableMigrateRule]", "source_config!:TaskSourceConfig",
                "status_list:[SubTaskStatus]", "ignore_checking_items:[str]");
        schema("TaskTargetDataBase", "host!:str", "port!:int", "user!:str", "password!:str", "security?:Security",
                "session:obj");
        schema("Security", "ssl_ca_content!:str", "ssl_cert_content!:str", "ssl_key_content!:str",
                "cert_allowed_cn:[str]");
        schema("TaskTableMigrateRule", "source!:TaskTableMigrateRuleSource", "target:TaskTableMigrateRuleTarget",
                "binlog_filter_rule:[str]");
        schema("TaskTableMigrateRuleSource", "source_name!:str", "schema!:str", "table!:str");
        schema("TaskTableMigrateRuleTarget", "schema:str", "table:str");
        schema("TaskSourceConfig", "full_migrate_conf:TaskFullMigrateConf", "incr_migrate_conf:TaskIncrMigrateConf",
                "source_conf!:[TaskSourceConf]");
        schema("TaskFullMigrateConf", "export_threads:int", "import_threads:int", "data_dir:str", "consistency:str",
                "import_mode:str", "sorting_dir:str", "disk_quota:str", "checksum:str", "analyze:str",
                "range_concurrency:int", "compress-kv-pairs:str", "pd_addr:str", "security:Security",
                "on_duplicate_logical:str", "on_duplicate_physical:str");
        schema("TaskIncrMigrateConf", "repl_threads:int", "repl_batch:int", "safe_mode:bool");
        schema("TaskSourceConf", "source_name!:str", "binlog_name:str", "binlog_pos:int", "binlog_gtid:str");
        schema("SubTaskStatus", "name!:str", "source_name!:str", "worker_name!:str", "stage!:str", "unit!:str",
                "unresolved_ddl_lock_id:str", "load_status?:LoadStatus", "sync_status?:SyncStatus",
                "dump_status?:DumpStatus", "error_msg:str");
        schema("LoadStatus", "finished_bytes!:int", "total_bytes!:int", "progress!:str", "meta_binlog!:str",
                "meta_binlog_gtid!:str", "bps!:int");
        schema("SyncStatus", "total_events!:int", "total_tps!:int", "recent_tps!:int", "master_binlog!:str",
                "master_binlog_gtid!:str", "syncer_binlog!:str", "syncer_binlog_gtid!:str", "blocking_ddls!:[str]",
                "unresolved_groups!:[ShardingGroup]", "synced!:bool", "binlog_type!:str",
                "seconds_behind_master!:int", "io_total_bytes!:int", "dump_io_total_bytes!:int");
        schema("ShardingGroup", "target!:str", "ddl_list!:[str]", "first_location!:str", "synced!:[str]",
                "unsynced!:[str]");
        schema("DumpStatus", "total_tables!:int", "completed_tables!:num", "finished_bytes!:num",
                "finished_rows!:num", "estimate_total_rows!:num", "bps!:int", "progress!:str");
        schema("Source", "source_name!:str", "host!:str", "port!:int", "user!:str", "password?:str",
                "enable_gtid!:bool", "enable!:bool", "flavor:str", "task_name_list:[str]", "security?:Security",
                "purge:obj", "status_list:[SourceStatus]", "relay_config:RelayConfig");
        schema("SourceStatus", "source_name!:str", "worker_name!:str", "relay_status:obj", "error_msg:str");
        schema("RelayConfig", "enable_relay:bool", "relay_binlog_name?:str", "relay_binlog_gtid?:str",
                "relay_dir?:str");
    }

    private DmOpenApiSpec() {
    }

    private static void schema(String name, String... properties) {
        SCHEMAS.put(name, List.of(properties));
    }

    /** The property names of a schema, in the spec's order. */
    public static List<String> names(String schema) {
        List<String> out = new ArrayList<>();
        for (String p : properties(schema)) {
            out.add(p.substring(0, p.indexOf(':')).replaceAll("[!?]$", ""));
        }
        return out;
    }

    /** Fails unless {@code node} is an object of DM's {@code schema}, everything under it included. */
    public static void assertShape(String schema, JsonNode node) {
        assertShape(schema, node, schema);
    }

    private static void assertShape(String schema, JsonNode node, String where) {
        assertTrue(node.isObject(), where + " is not an object: " + node);
        List<String> names = names(schema);
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            assertTrue(names.contains(f), where + ": DM's " + schema + " has no " + f + ": " + node);
        }
        for (String p : properties(schema)) {
            String head = p.substring(0, p.indexOf(':'));
            String type = p.substring(p.indexOf(':') + 1);
            String name = head.replaceAll("[!?]$", "");
            JsonNode v = node.get(name);
            if (v == null) {
                assertFalse(head.endsWith("!"), where + ": DM's " + schema + " requires " + name + ": " + node);
                continue;
            }
            if (v.isNull()) {
                assertTrue(head.endsWith("?"), where + "." + name + ": null where DM's " + schema + " has no null");
                continue;
            }
            assertType(type, v, where + "." + name);
        }
    }

    private static void assertType(String type, JsonNode v, String where) {
        switch (type) {
            case "str" -> assertTrue(v.isTextual(), where + " is not a string: " + v);
            case "int" -> assertTrue(v.isIntegralNumber(), where + " is not an integer: " + v);
            case "num" -> assertTrue(v.isNumber(), where + " is not a number: " + v);
            case "bool" -> assertTrue(v.isBoolean(), where + " is not a boolean: " + v);
            case "obj" -> assertTrue(v.isObject(), where + " is not an object: " + v);
            default -> {
                if (type.startsWith("[")) {
                    assertTrue(v.isArray(), where + " is not a list: " + v);
                    String item = type.substring(1, type.length() - 1);
                    for (int i = 0; i < v.size(); i++) {
                        assertType(item, v.get(i), where + "[" + i + "]");
                    }
                } else {
                    assertShape(type, v, where);
                }
            }
        }
    }

    private static List<String> properties(String schema) {
        List<String> p = SCHEMAS.get(schema);
        assertNotNull(p, "no schema " + schema);
        return p;
    }
}
