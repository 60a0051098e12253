package io.jdm.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.common.config.Secret;
import io.jdm.common.config.StatusConfig;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DM's OpenAPI on the status address, over a task of two sources and a query-status answer in the
 * shape {@code /status} prints (s1 syncing with a shard lock, s2 a load that failed): every answer
 * in the shape of DM's schema ({@link DmOpenApiSpec}) with the numbers of {@code /status}, no secret
 * in any, start and stop only with the token and only on the task's own name and sources, 404 and
 * 405 in DM's error body.
 */
class OpenApiTest {
    private static final String TOKEN = "5e884898da28047151d0e56f8dc62927";
    private static final String SOURCE_PASSWORD = "src-Secret-1a";
    private static final String TARGET_PASSWORD = "tgt-Secret-2b";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final TaskConfig TASK = new TaskConfigLoader(k -> null).parse(String.join("\n",
            "name: ops",
            "task-mode: all",
            "meta-schema: jdm_meta_ops",
            "shard-mode: pessimistic",
            "target-database: {host: tidb.example, port: 4000, user: jdm, password: \"" + TARGET_PASSWORD + "\"}",
            "block-allow-list: {only: {do-dbs: [shop, \"~^log_\"], do-tables: [{db-name: shop, tbl-name: orders}]}}",
            "routes: {merge: {schema-pattern: \"shop_*\", table-pattern: \"orders_*\", target-schema: shop, "
                    + "target-table: orders}}",
            "mydumpers: {global: {threads: 3}}",
            "loaders: {global: {pool-size: 5, on-duplicate: replace}}",
            "syncers: {global: {worker-count: 7, batch: 50}}",
            "mysql-instances:",
            "  - source-id: s1",
            "    block-allow-list: only",
            "    route-rules: [merge]",
            "    from: {host: db1.example, port: 3306, user: repl, password: \"" + SOURCE_PASSWORD + "\"}",
            "  - source-id: s2",
            "    block-allow-list: only",
            "    meta: {binlog-name: mysql-bin.000003, binlog-pos: 4}",
            "    from: {host: db2.example, port: 3307, user: repl, password: \"" + SOURCE_PASSWORD + "\"}",
            ""), Path.of("."));

    private final List<TaskOp> done = new CopyOnWriteArrayList<>();
    private volatile Map<String, Object> status = status(loadSection());
    private volatile String refusal;
    private final StatusProvider provider = new StatusProvider() {
        @Override
        public TaskConfig task() {
            return TASK;
        }

        @Override
        public Map<String, Object> status() {
            return status;
        }

        @Override
        public String metrics() {
            return "";
        }

        @Override
        public Map<String, Object> operate(TaskOp op) {
            if (refusal != null) {
                throw new TaskOpRefused(refusal);
            }
            done.add(op);
            return Map.of("op", op.dmName, "result", true);
        }
    };
    private StatusServer server;
    private String base;

    @BeforeEach
    void start() throws Exception {
        server = StatusServer.start("ops", new StatusConfig("127.0.0.1:0", Secret.of(TOKEN), Optional.empty()),
                provider);
        base = "http://127.0.0.1:" + server.port() + "/api/v1";
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void listsTheTaskWithItsSettingsAndStatusInDmShape() throws Exception {
        JsonNode list = get("/tasks", 200);
        DmOpenApiSpec.assertShape("GetTaskListResponse", list);
        assertEquals(1, list.path("total").asInt());
        JsonNode task = list.path("data").path(0);
        assertEquals("ops", task.path("name").asText());
        assertEquals("all", task.path("task_mode").asText());
        assertEquals("pessimistic", task.path("shard_mode").asText());
        assertEquals("jdm_meta_ops", task.path("meta_schema").asText());
        assertTrue(task.path("enhance_online_schema_change").asBoolean());
        assertEquals("replace", task.path("on_duplicate").asText());
        assertEquals(JSON.readTree("{\"host\": \"tidb.example\", \"port\": 4000, \"user\": \"jdm\", "
                + "\"password\": \"******\", \"security\": null}"), task.path("target_config"));
        assertEquals(JSON.readTree("["
                + rule("s1", "shop_*", "orders_*", ", \"target\": {\"schema\": \"shop\", \"table\": \"orders\"}") + ","
                + rule("s1", "shop", "", "") + "," + rule("s1", "~^log_", "", "") + ","
                + rule("s1", "shop", "orders", "") + "," + rule("s2", "shop", "", "") + ","
                + rule("s2", "~^log_", "", "") + "," + rule("s2", "shop", "orders", "") + "]"),
                task.path("table_migrate_rule"));
        assertEquals(JSON.readTree("{\"full_migrate_conf\": {\"export_threads\": 3, \"import_threads\": 5, "
                + "\"consistency\": \"auto\", \"import_mode\": \"logical\"}, \"incr_migrate_conf\": {\"repl_threads\": 7, "
                + "\"repl_batch\": 50, \"safe_mode\": false}, \"source_conf\": [{\"source_name\": \"s1\"}, "
                + "{\"source_name\": \"s2\", \"binlog_name\": \"mysql-bin.000003\", \"binlog_pos\": 4}]}"),
                task.path("source_config"));
        assertTrue(task.path("status_list").isMissingNode(), "status without with_status: " + task);

        JsonNode withStatus = get("/tasks?with_status=true", 200);
        DmOpenApiSpec.assertShape("GetTaskListResponse", withStatus);
        assertEquals(get("/tasks/ops/status", 200).path("data"), withStatus.path("data").path(0).path("status_list"));
        assertEquals(task, get("/tasks/ops", 200));
        assertEquals(0, get("/tasks?stage=Running", 200).path("total").asInt(), "s2 is Paused: DM lists it not");
        status = status(syncSection("Running"), "Running", null);
        assertEquals(1, get("/tasks?stage=Running", 200).path("total").asInt());
        assertEquals(1, get("/tasks?source_name_list=s2&source_name_list=s1", 200).path("total").asInt());
        assertEquals(0, get("/tasks?source_name_list=s1", 200).path("total").asInt());
        assertError(get("/tasks?with_status=yes", 400), 0, "with_status: must be true or false, got yes");
    }

    @Test
    void statusIsOneSubTaskStatusPerSourceWithTheNumbersOfStatus() throws Exception {
        JsonNode status = get("/tasks/ops/status", 200);
        DmOpenApiSpec.assertShape("GetTaskStatusResponse", status);
        assertEquals(2, status.path("total").asInt());
        JsonNode s1 = status.path("data").path(0);
        assertEquals(JSON.readTree("{\"name\": \"ops\", \"source_name\": \"s1\", \"worker_name\": \"jdm-1\", "
                + "\"stage\": \"Running\", \"unit\": \"Sync\", \"unresolved_ddl_lock_id\": \"\", \"sync_status\": {"
                + "\"total_events\": 120, \"total_tps\": 10, \"recent_tps\": 12, "
                + "\"master_binlog\": \"(mysql-bin.000002, 900)\", \"master_binlog_gtid\": \"0-1-77\", "
                + "\"syncer_binlog\": \"(mysql-bin.000002, 800)\", \"syncer_binlog_gtid\": \"0-1-70\", "
                + "\"blocking_ddls\": [\"ALTER TABLE `shop`.`orders` ADD COLUMN c INT\"], \"unresolved_groups\": [{"
                + "\"target\": \"`shop`.`orders`\", \"ddl_list\": [\"ALTER TABLE `shop`.`orders` ADD COLUMN c INT\"], "
                + "\"first_location\": \"(mysql-bin.000002, 850)\", \"synced\": [\"`shop_1`.`orders_1`\"], "
                + "\"unsynced\": [\"`shop_2`.`orders_2`\"]}], \"synced\": false, \"binlog_type\": \"remote\", "
                + "\"seconds_behind_master\": 3, \"io_total_bytes\": 0, \"dump_io_total_bytes\": 0}}"), s1);
        JsonNode s2 = status.path("data").path(1);
        assertEquals("s2", s2.path("source_name").asText());
        assertEquals("Paused", s2.path("stage").asText());
        assertEquals("Load", s2.path("unit").asText());
        assertEquals(JSON.readTree("{\"finished_bytes\": 4096, \"total_bytes\": 8192, \"progress\": \"50.00 %\", "
                + "\"meta_binlog\": \"(mysql-bin.000003, 4)\", \"meta_binlog_gtid\": \"\", \"bps\": 1024}"),
                s2.path("load_status"));
        assertEquals("[code=0:class=load-unit:scope=not-set:level=high], Message: task ops load: "
                + "Duplicate entry '1' for key 'PRIMARY', RawCause: SQLIntegrityConstraintViolationException: "
                + "Duplicate entry '1' for key 'PRIMARY'.\n", s2.path("error_msg").asText());
        assertTrue(s1.path("error_msg").isMissingNode(), s1.toString());

        this.status = status(dumpSection());
        JsonNode dumping = get("/tasks/ops/status?source_name_list=s2", 200);
        DmOpenApiSpec.assertShape("GetTaskStatusResponse", dumping);
        assertEquals(1, dumping.path("total").asInt());
        assertEquals(JSON.readTree("{\"total_tables\": 12, \"completed_tables\": 5, \"finished_bytes\": 65536, "
                + "\"finished_rows\": 1000, \"estimate_total_rows\": 2400, \"bps\": 2048, \"progress\": \"41.67 %\"}"),
                dumping.path("data").path(0).path("dump_status"));
        assertError(get("/tasks/ops/status?source_name_list=s9", 400), OpenApiError.SOURCE_NOT_EXIST,
                "source_name_list: source s9 is not run by this jdm: it runs s1, s2");
    }

    @Test
    void sourcesAreTheTasksSourcesWithoutTheirPasswords() throws Exception {
        JsonNode list = get("/sources", 200);
        DmOpenApiSpec.assertShape("GetSourceListResponse", list);
        assertEquals(2, list.path("total").asInt());
        assertEquals(JSON.readTree("{\"source_name\": \"s2\", \"host\": \"db2.example\", \"port\": 3307, "
                + "\"user\": \"repl\", \"password\": \"******\", \"enable_gtid\": true, \"enable\": true, "
                + "\"security\": null, \"relay_config\": {\"enable_relay\": false, \"relay_binlog_gtid\": \"\", "
                + "\"relay_binlog_name\": \"\", \"relay_dir\": \"\"}}"), list.path("data").path(1));
        assertEquals(list.path("data").path(1), get("/sources/s2", 200));
        JsonNode withStatus = get("/sources/s1?with_status=true", 200);
        DmOpenApiSpec.assertShape("Source", withStatus);
        assertEquals(JSON.readTree("[\"ops\"]"), withStatus.path("task_name_list"));
        assertEquals(JSON.readTree("[{\"source_name\": \"s1\", \"worker_name\": \"jdm-1\"}]"),
                withStatus.path("status_list"));
        JsonNode sourceStatus = get("/sources/s2/status", 200);
        DmOpenApiSpec.assertShape("GetSourceStatusResponse", sourceStatus);
        assertEquals(JSON.readTree("{\"total\": 1, \"data\": [{\"source_name\": \"s2\", \"worker_name\": \"jdm-1\"}]}"),
                sourceStatus);
        assertEquals(0, get("/sources?enable_relay=true", 200).path("total").asInt(), "jdm has no relay log");
        assertEquals(2, get("/sources?enable_relay=false", 200).path("total").asInt());
        assertError(get("/sources/s9/status", 404), OpenApiError.SOURCE_NOT_EXIST,
                "source s9 is not run by this jdm: it runs s1, s2");
        assertError(get("/sources/s9", 404), OpenApiError.SOURCE_NOT_EXIST,
                "source s9 is not run by this jdm: it runs s1, s2");
    }

    @Test
    void noAnswerShowsASecret() throws Exception {
        for (String path : List.of("/tasks?with_status=true", "/tasks/ops?with_status=true", "/tasks/ops/status",
                "/sources?with_status=true", "/sources/s1?with_status=true", "/sources/s1/status")) {
            String body = send("GET", path, null, null).body();
            for (String secret : List.of(TOKEN, SOURCE_PASSWORD, TARGET_PASSWORD)) {
                assertFalse(body.contains(secret), path + " shows a secret: " + body);
            }
        }
    }

    @Test
    void startAndStopNeedTheTokenAndPauseAndResumeTheTask() throws Exception {
        HttpResponse<String> none = send("POST", "/tasks/ops/stop", null, null);
        assertEquals(401, none.statusCode());
        assertEquals(ControlAccess.UNAUTHORIZED + "\n", none.body());
        assertEquals(401, send("POST", "/tasks/ops/start", "Bearer " + TOKEN.substring(1), null).statusCode());
        assertEquals(401, send("POST", "/tasks/other/stop", null, null).statusCode(), "the token comes first");
        assertEquals(List.of(), done, "an operation ran without the token");

        HttpResponse<String> stopped = send("POST", "/tasks/ops/stop", "Bearer " + TOKEN, null);
        assertEquals(200, stopped.statusCode(), stopped.body());
        assertEquals("", stopped.body(), "DM answers a stop with no body");
        assertEquals(200, send("POST", "/tasks/ops/start", "Bearer " + TOKEN, "{}").statusCode());
        assertEquals(200, send("POST", "/tasks/ops/start", "Bearer " + TOKEN,
                "{\"remove_meta\": false, \"source_name_list\": [\"s2\", \"s1\"]}").statusCode());
        assertEquals(List.of(TaskOp.PAUSE, TaskOp.RESUME, TaskOp.RESUME), done);

        done.clear();
        assertError(post("/tasks/other/stop", null, 404), OpenApiError.TASK_NOT_EXIST,
                "task other is not run by this jdm: it runs task ops");
        assertError(post("/tasks/ops/start", "{\"remove_meta\": true}", 400), 0, "remove_meta: jdm drops a task's "
                + "meta tables only as it starts: stop it with jdm stop-task TASK.yaml and run jdm run --remove-meta "
                + "TASK.yaml");
        assertError(post("/tasks/ops/start", "{\"start_time\": \"2024-01-02T03:04:05+08:00\"}", 400), 0,
                "start_time: jdm starts a sync at a time only as it starts: stop it with jdm stop-task TASK.yaml and "
                        + "run jdm sync --start-time TIME TASK.yaml");
        assertError(post("/tasks/ops/stop", "{\"timeout_duration\": \"10s\"}", 400), 0, "timeout_duration: jdm's "
                + "pause always lets the writers commit what they hold (30 s at most, then they go on while paused): "
                + "send no timeout_duration");
        assertError(post("/tasks/ops/stop", "{\"source_name_list\": [\"s1\"]}", 400), 0, "source_name_list: this "
                + "jdm starts and stops its sources s1, s2 together: list all of them or none");
        assertError(post("/tasks/ops/stop", "{\"source_name_list\": [\"s1\", \"s9\"]}", 400),
                OpenApiError.SOURCE_NOT_EXIST, "source_name_list: source s9 is not run by this jdm: it runs s1, s2");
        assertError(post("/tasks/ops/stop", "[1]", 400), 0, "the request body must be a JSON object, got [1]");
        JsonNode notJson = post("/tasks/ops/stop", "{not json", 400);
        assertTrue(notJson.path("error_msg").asText().startsWith("the request body is not JSON: "), notJson.toString());
        // a chunked body (no length) is read as well: the filter that bounds it hands it on
        HttpRequest chunked = HttpRequest.newBuilder(URI.create(base + "/tasks/ops/stop"))
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(
                        "{\"source_name_list\": [\"s1\"]}".getBytes(StandardCharsets.UTF_8)))).build();
        assertEquals(400, HTTP.send(chunked, HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(List.of(), done, "a refused start or stop ran");

        refusal = "pause-task: task ops is stopping";
        assertError(post("/tasks/ops/stop", null, 400), 0, "pause-task: task ops is stopping");
    }

    @Test
    void onAnOpenAddressWithoutATokenStartAndStopAreOffAndTheReadsAreNot() throws Exception {
        server.close();
        server = StatusServer.start("ops", StatusConfig.at("0.0.0.0:0"), provider);
        base = "http://127.0.0.1:" + server.port() + "/api/v1";
        HttpResponse<String> off = send("POST", "/tasks/ops/stop", "Bearer " + TOKEN, null);
        assertEquals(403, off.statusCode());
        assertEquals(ControlAccess.OFF + "\n", off.body());
        assertEquals(List.of(), done);
        assertEquals(1, get("/tasks", 200).path("total").asInt());
    }

    @Test
    void servesItsOpenApiDocumentAtDmsPathWithoutAToken() throws Exception {
        JsonNode served = get("/dm.json", 200);
        assertEquals(OpenApi.Spec.DOCUMENT, served);
        assertEquals("DMAPIGetTaskStatus", served.at("/paths/~1api~1v1~1tasks~1{task-name}~1status/get/operationId")
                .asText());
    }

    @Test
    void otherPathsAre404AndOtherMethods405InDmsErrorBody() throws Exception {
        JsonNode notServed = get("/cluster/info", 404);
        DmOpenApiSpec.assertShape("ErrorWithMessage", notServed);
        assertTrue(notServed.path("error_msg").asText().startsWith("GET /api/v1/cluster/info: not served by jdm; it "
                + "serves GET /api/v1/tasks, "), notServed.toString());
        assertError(get("/tasks/other/status", 404), OpenApiError.TASK_NOT_EXIST,
                "task other is not run by this jdm: it runs task ops");
        assertError(get("/tasks/other", 404), OpenApiError.TASK_NOT_EXIST,
                "task other is not run by this jdm: it runs task ops");
        assertEquals(404, send("GET", "/tasks/ops/status/", null, null).statusCode());
        for (String[] r : new String[][] {{"POST", "/tasks", "GET"}, {"DELETE", "/tasks/ops", "GET"},
                {"PUT", "/tasks/ops", "GET"}, {"GET", "/tasks/ops/stop", "POST"}, {"POST", "/tasks/ops/status", "GET"},
                {"POST", "/sources", "GET"}, {"DELETE", "/sources/s1", "GET"}}) {
            HttpResponse<String> answer = send(r[0], r[1], "Bearer " + TOKEN, "{}");
            assertEquals(405, answer.statusCode(), r[0] + " " + r[1]);
            assertEquals(r[2], answer.headers().firstValue("Allow").orElse(""), r[0] + " " + r[1]);
            JsonNode body = JSON.readTree(answer.body());
            DmOpenApiSpec.assertShape("ErrorWithMessage", body);
            assertTrue(body.path("error_msg").asText().startsWith(r[0] + " /api/v1" + r[1] + ": not served by jdm, "
                    + "which answers " + r[2] + " here"), body.toString());
        }
        assertEquals(List.of(), done);
    }

    private static String rule(String source, String schema, String table, String target) {
        return "{\"source\": {\"source_name\": \"" + source + "\", \"schema\": \"" + schema + "\", \"table\": \""
                + table + "\"}" + target + "}";
    }

    private static void assertError(JsonNode body, int code, String message) {
        DmOpenApiSpec.assertShape("ErrorWithMessage", body);
        assertEquals(message, body.path("error_msg").asText());
        assertEquals(code, body.path("error_code").asInt(-1));
    }

    private JsonNode get(String path, int expected) throws Exception {
        HttpResponse<String> r = send("GET", path, null, null);
        assertEquals(expected, r.statusCode(), path + ": " + r.body());
        assertEquals("application/json; charset=utf-8", r.headers().firstValue("Content-Type").orElse(""));
        return JSON.readTree(r.body());
    }

    private JsonNode post(String path, String body, int expected) throws Exception {
        HttpResponse<String> r = send("POST", path, "Bearer " + TOKEN, body);
        assertEquals(expected, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> send(String method, String path, String authorization, String body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    // --- a query-status answer as /status prints it (DmResponses): int64 values as strings

    private static Map<String, Object> status(Map<String, Object> s2Section) {
        return status(syncSection("Running"), "Paused", s2Section);
    }

    private static Map<String, Object> status(Map<String, Object> s1Sync, String s2Stage, Map<String, Object> s2) {
        List<Object> sources = new ArrayList<>();
        sources.add(source("s1", subTask("Running", "Sync", "sync", s1Sync, null)));
        if (s2 == null) {
            sources.add(source("s2", subTask(s2Stage, "Sync", "sync", syncSection(s2Stage), null)));
        } else {
            boolean load = s2.containsKey("metaBinlog");
            sources.add(source("s2", subTask(s2Stage, load ? "Load" : "Dump", load ? "load" : "dump", s2,
                    load ? failure() : null)));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("result", true);
        m.put("msg", "");
        m.put("sources", sources);
        return m;
    }

    private static Map<String, Object> source(String id, Map<String, Object> subTask) {
        Map<String, Object> sourceStatus = new LinkedHashMap<>();
        sourceStatus.put("source", id);
        sourceStatus.put("worker", "jdm-1");
        sourceStatus.put("result", null);
        sourceStatus.put("relayStatus", null);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("result", true);
        m.put("msg", "");
        m.put("sourceStatus", sourceStatus);
        m.put("subTaskStatus", List.of(subTask));
        return m;
    }

    private static Map<String, Object> subTask(String stage, String unit, String key, Map<String, Object> section,
                                               Map<String, Object> result) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "ops");
        m.put("stage", stage);
        m.put("unit", unit);
        m.put("result", result);
        m.put("unresolvedDDLLockID", "");
        m.put(key, section);
        m.put("validation", null);
        m.put("jdm", Map.of("queueDepth", 3));
        return m;
    }

    private static Map<String, Object> syncSection(String stage) {
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("target", "`shop`.`orders`");
        group.put("DDLs", List.of("ALTER TABLE `shop`.`orders` ADD COLUMN c INT"));
        group.put("firstLocation", "(mysql-bin.000002, 850)");
        group.put("synced", List.of("`shop_1`.`orders_1`"));
        group.put("unsynced", List.of("`shop_2`.`orders_2`"));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("totalEvents", "120");
        m.put("totalTps", "10");
        m.put("recentTps", "12");
        m.put("masterBinlog", "(mysql-bin.000002, 900)");
        m.put("masterBinlogGtid", "0-1-77");
        m.put("syncerBinlog", "(mysql-bin.000002, 800)");
        m.put("syncerBinlogGtid", "0-1-70");
        m.put("blockingDDLs", List.of("ALTER TABLE `shop`.`orders` ADD COLUMN c INT"));
        m.put("unresolvedGroups", List.of(group));
        m.put("synced", false);
        m.put("binlogType", "remote");
        m.put("secondsBehindMaster", "3");
        m.put("blockDDLOwner", "");
        m.put("conflictMsg", "");
        m.put("totalRows", "120");
        m.put("totalRps", "10");
        m.put("recentRps", "12");
        return m;
    }

    private static Map<String, Object> loadSection() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("finishedBytes", "4096");
        m.put("totalBytes", "8192");
        m.put("progress", "50.00 %");
        m.put("metaBinlog", "(mysql-bin.000003, 4)");
        m.put("metaBinlogGTID", "");
        m.put("bps", "1024");
        return m;
    }

    private static Map<String, Object> dumpSection() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("totalTables", "12");
        m.put("completedTables", 5);
        m.put("finishedBytes", 65536L);
        m.put("finishedRows", 1000L);
        m.put("estimateTotalRows", 2400L);
        m.put("bps", "2048");
        m.put("progress", "41.67 %");
        return m;
    }

    private static Map<String, Object> failure() {
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("ErrCode", 0);
        err.put("ErrClass", "load-unit");
        err.put("ErrScope", "not-set");
        err.put("ErrLevel", "high");
        err.put("Message", "task ops load: Duplicate entry '1' for key 'PRIMARY'");
        err.put("RawCause", "SQLIntegrityConstraintViolationException: Duplicate entry '1' for key 'PRIMARY'");
        err.put("Workaround", "");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("isCanceled", false);
        m.put("errors", List.of(err));
        m.put("detail", null);
        return m;
    }
}
