package io.jdm.cli.daemon;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The part of DM's OpenAPI ({@code /api/v1}, dm-master's {@code dm/openapi/spec/dm.yaml}) that one jdm
 * process answers, for scripts written against dm-master:
 *
 * <pre>
 * GET  /api/v1/dm.json                      this API's OpenAPI document ({@code dm-openapi.yaml} beside this class)
 * GET  /api/v1/tasks                        the one task (with_status, stage, source_name_list)
 * GET  /api/v1/tasks/{task-name}            the task (with_status)
 * GET  /api/v1/tasks/{task-name}/status     its status, one entry per source (source_name_list)
 * POST /api/v1/tasks/{task-name}/stop       pause-task, as DM's v1 stop is (the task stays, Paused)
 * POST /api/v1/tasks/{task-name}/start      resume-task
 * GET  /api/v1/sources                      the sources this process runs (with_status, enable_relay)
 * GET  /api/v1/sources/{source-name}        one of them (with_status)
 * GET  /api/v1/sources/{source-name}/status its status
 * </pre>
 *
 * The GETs are open as {@code /status} is; the POSTs pass {@link ControlAccess} as {@code /tasks/*}
 * do, before anything else is looked at. A task or source this process does not run is 404 with DM's
 * error body ({@code error_msg}, {@code error_code}: DM's code for a missing task or source); any
 * other method on these paths is 405, any other path 404; a start or stop asking what only a new start
 * can do (remove_meta, start_time) is 400 with the command that does it. Bodies come from
 * {@link OpenApiShapes}, from the same query-status answer as {@code /status}.
 */
final class OpenApi implements HttpHandler {
    static final String ROOT = "/api/v1/";
    private static final String JSON_TYPE = "application/json; charset=utf-8";

    private final StatusProvider provider;
    private final Filter access;
    private final ObjectWriter json;
    private final List<Route> routes = List.of(
            new Route("GET", "tasks", this::taskList),
            new Route("GET", "tasks/{task-name}", this::task),
            new Route("GET", "tasks/{task-name}/status", this::taskStatus),
            new Route("POST", "tasks/{task-name}/start", c -> operate(c, TaskOp.RESUME)),
            new Route("POST", "tasks/{task-name}/stop", c -> operate(c, TaskOp.PAUSE)),
            new Route("GET", "sources", this::sourceList),
            new Route("GET", "sources/{source-name}", this::source),
            new Route("GET", "sources/{source-name}/status", this::sourceStatus),
            new Route("GET", "dm.json", c -> Answer.ok(Spec.DOCUMENT)));

    OpenApi(StatusProvider provider, Filter access, ObjectWriter json) {
        this.provider = provider;
        this.access = access;
        this.json = json;
    }

    /** The OpenAPI document of what this class answers, read once from the jar. */
    static final class Spec {
        static final String RESOURCE = "dm-openapi.yaml";
        static final JsonNode DOCUMENT = read();

        private Spec() {
        }

        private static JsonNode read() {
            try (InputStream in = OpenApi.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(RESOURCE + " is missing from the jar");
                }
                return new ObjectMapper(new YAMLFactory()).readTree(in);
            } catch (IOException e) {
                throw new UncheckedIOException(RESOURCE + " cannot be read", e);
            }
        }
    }

    /** What a route answers: a status, a body (none when null) and what to do once it is sent. */
    private record Answer(int code, Object body, Runnable after) {
        static Answer ok(Object body) {
            return new Answer(200, body, () -> { });
        }
    }

    private interface Handler {
        Answer handle(OpenApiRequest request) throws IOException;
    }

    private record Route(String method, List<String> segments, Handler handler) {
        Route(String method, String path, Handler handler) {
            this(method, List.of(path.split("/")), handler);
        }

        /** The path's names when {@code path} has this route's shape, else null. */
        Map<String, String> match(List<String> path) {
            if (path.size() != segments.size()) {
                return null;
            }
            Map<String, String> names = new LinkedHashMap<>();
            for (int i = 0; i < path.size(); i++) {
                String s = segments.get(i);
                if (s.startsWith("{")) {
                    names.put(s.substring(1, s.length() - 1), path.get(i));
                } else if (!s.equals(path.get(i))) {
                    return null;
                }
            }
            return names;
        }
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        String raw = ex.getRequestURI().getRawPath();
        Set<String> allowed = new LinkedHashSet<>();
        try {
            // a path that reaches here only once decoded (/api/%761/...) matches no route
            List<String> path = raw.startsWith(ROOT) ? OpenApiRequest.segments(raw.substring(ROOT.length()))
                    : List.of();
            for (Route r : routes) {
                Map<String, String> names = r.match(path);
                if (names == null) {
                    continue;
                }
                if (r.method.equals(ex.getRequestMethod())) {
                    OpenApiRequest request = new OpenApiRequest(ex, names,
                            OpenApiRequest.query(ex.getRequestURI().getRawQuery()));
                    if ("GET".equals(r.method)) {
                        answer(ex, r.handler, request);
                    } else {
                        new Filter.Chain(List.of(access), e -> answer(e, r.handler, request)).doFilter(ex);
                    }
                    return;
                }
                allowed.add(r.method);
            }
        } catch (OpenApiError e) {
            try (ex) {
                error(ex, e);
            }
            return;
        }
        String request = ex.getRequestMethod() + " " + raw;
        try (ex) {
            if (allowed.isEmpty()) {
                error(ex, new OpenApiError(404, OpenApiError.NO_DM_CODE, request + ": not served by jdm; it serves "
                        + served()));
            } else {
                ex.getResponseHeaders().set("Allow", String.join(", ", allowed));
                error(ex, new OpenApiError(405, OpenApiError.NO_DM_CODE, request + ": not served by jdm, which "
                        + "answers " + String.join(" and ", allowed) + " here; a jdm process runs the one task of its "
                        + "task file: change the file and restart jdm to change the task or its sources"));
            }
        }
    }

    private void answer(HttpExchange ex, Handler handler, OpenApiRequest request) throws IOException {
        Answer a;
        try (ex) {
            try {
                a = handler.handle(request);
            } catch (OpenApiError e) {
                error(ex, e);
                return;
            } catch (TaskOpRefused e) {
                error(ex, OpenApiError.badRequest(e.getMessage()));
                return;
            } catch (RuntimeException e) {
                error(ex, new OpenApiError(500, OpenApiError.NO_DM_CODE, String.valueOf(e.getMessage())));
                return;
            }
            if (a.body == null) {
                ex.sendResponseHeaders(a.code, -1);
            } else {
                StatusServer.send(ex, a.code, JSON_TYPE, json.writeValueAsString(a.body));
            }
        }
        a.after.run();
    }

    private void error(HttpExchange ex, OpenApiError e) throws IOException {
        if ("HEAD".equals(ex.getRequestMethod())) {
            ex.sendResponseHeaders(e.status, -1);
            return;
        }
        StatusServer.send(ex, e.status, JSON_TYPE, json.writeValueAsString(e.body()));
    }

    private String served() {
        return routes.stream().map(r -> r.method + " " + ROOT + String.join("/", r.segments))
                .collect(Collectors.joining(", "));
    }

    // --- tasks

    /** DM's {@code GetTaskListResponse}; the filters as dm-master applies them. */
    private Answer taskList(OpenApiRequest c) {
        boolean withStatus = c.bool("with_status");
        String stage = c.param("stage");
        Map<String, Object> task = OpenApiShapes.task(provider.task());
        List<Map<String, Object>> statuses = withStatus || stage != null ? statuses() : List.of();
        boolean kept = stage == null || statuses.stream().allMatch(s -> stage.equals(s.get("stage")));
        List<String> sources = c.params("source_name_list");
        if (sources != null && !new HashSet<>(sources).equals(new HashSet<>(sourceIds()))) {
            kept = false;
        }
        if (withStatus) {
            task.put("status_list", statuses);
        }
        return Answer.ok(list(kept ? List.of(task) : List.of()));
    }

    private Answer task(OpenApiRequest c) {
        knownTask(c);
        Map<String, Object> task = OpenApiShapes.task(provider.task());
        if (c.bool("with_status")) {
            task.put("status_list", statuses());
        }
        return Answer.ok(task);
    }

    /** DM's {@code GetTaskStatusResponse}: one entry per source. */
    private Answer taskStatus(OpenApiRequest c) {
        knownTask(c);
        List<Map<String, Object>> statuses = statuses();
        List<String> wanted = c.params("source_name_list");
        if (wanted != null) {
            wanted.forEach(name -> listed("source_name_list", name));
            statuses = statuses.stream().filter(s -> wanted.contains(s.get("source_name"))).toList();
        }
        return Answer.ok(list(statuses));
    }

    /** DM's v1 stop sets the subtasks' stage to Stopped, which its workers carry out as a pause. */
    private Answer operate(OpenApiRequest c, TaskOp op) throws IOException {
        knownTask(c);
        JsonNode body = c.body();
        if (op == TaskOp.RESUME) {
            refuseIfTrue(body, "remove_meta", "jdm drops a task's meta tables only as it starts: stop it with jdm "
                    + "stop-task TASK.yaml and run jdm run --remove-meta TASK.yaml");
            refuseIfSet(body, "start_time", "jdm starts a sync at a time only as it starts: stop it with jdm "
                    + "stop-task TASK.yaml and run jdm sync --start-time TIME TASK.yaml");
            refuseIfSet(body, "safe_mode_time_duration", "jdm reads safe-mode-duration from the task file's "
                    + "syncers: set it there and restart the task");
        } else {
            refuseIfSet(body, "timeout_duration", "jdm's pause always lets the writers commit what they hold "
                    + "(30 s at most, then they go on while paused): send no timeout_duration");
        }
        sourceNameList(body);
        provider.operate(op);
        return new Answer(200, null, () -> provider.afterOperate(op));
    }

    // --- sources

    /** DM's {@code GetSourceListResponse}; jdm has no relay log, so enable_relay=true lists none. */
    private Answer sourceList(OpenApiRequest c) {
        boolean withStatus = c.bool("with_status");
        boolean relayOnly = c.param("enable_relay") != null && c.bool("enable_relay");
        List<Map<String, Object>> sources = new ArrayList<>();
        if (!relayOnly) {
            for (MySqlInstance i : provider.task().runInstances()) {
                sources.add(source(i, withStatus));
            }
        }
        return Answer.ok(list(sources));
    }

    private Answer source(OpenApiRequest c) {
        return Answer.ok(source(knownSource(c.path().get("source-name")), c.bool("with_status")));
    }

    /** DM's {@code GetSourceStatusResponse}. */
    private Answer sourceStatus(OpenApiRequest c) {
        return Answer.ok(list(sourceStatuses(knownSource(c.path().get("source-name")).sourceId())));
    }

    private Map<String, Object> source(MySqlInstance i, boolean withStatus) {
        Map<String, Object> m = OpenApiShapes.source(provider.task(), i);
        if (withStatus) {
            m.put("task_name_list", List.of(provider.task().name()));
            m.put("status_list", sourceStatuses(i.sourceId()));
        }
        return m;
    }

    private List<Map<String, Object>> sourceStatuses(String sourceId) {
        return OpenApiShapes.sourceStatuses(provider.status()).stream()
                .filter(s -> sourceId.equals(s.get("source_name"))).toList();
    }

    // --- parts

    private List<Map<String, Object>> statuses() {
        return OpenApiShapes.subTaskStatuses(provider.status());
    }

    /** DM's list responses: {@code {"total": n, "data": [...]}}. */
    private static Map<String, Object> list(List<?> data) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total", data.size());
        m.put("data", data);
        return m;
    }

    private void knownTask(OpenApiRequest c) {
        String name = c.path().get("task-name");
        TaskConfig task = provider.task();
        if (!task.name().equals(name)) {
            throw new OpenApiError(404, OpenApiError.TASK_NOT_EXIST, "task " + name + " is not run by this jdm: it "
                    + "runs task " + task.name());
        }
    }

    /** The source a path names, or 404. */
    private MySqlInstance knownSource(String name) {
        return provider.task().runInstances().stream().filter(i -> i.sourceId().equals(name)).findFirst()
                .orElseThrow(() -> new OpenApiError(404, OpenApiError.SOURCE_NOT_EXIST, notRun(name)));
    }

    /** A source a parameter lists must be one this process runs, else 400 as DM answers. */
    private void listed(String parameter, String name) {
        if (!sourceIds().contains(name)) {
            throw new OpenApiError(400, OpenApiError.SOURCE_NOT_EXIST, parameter + ": " + notRun(name));
        }
    }

    private String notRun(String source) {
        return "source " + source + " is not run by this jdm: it runs " + String.join(", ", sourceIds());
    }

    private List<String> sourceIds() {
        return provider.task().runInstances().stream().map(MySqlInstance::sourceId).toList();
    }

    /** A start or stop acts on every source this process runs, as pause-task and resume-task do. */
    private void sourceNameList(JsonNode body) {
        JsonNode list = body.path("source_name_list");
        if (list.isMissingNode() || list.isNull()) {
            return;
        }
        if (!list.isArray()) {
            throw OpenApiError.badRequest("source_name_list: must be a list of source names, got " + list);
        }
        Set<String> names = new HashSet<>();
        for (JsonNode n : list) {
            if (!n.isTextual()) {
                throw OpenApiError.badRequest("source_name_list: must be a list of source names, got " + list);
            }
            listed("source_name_list", n.asText());
            names.add(n.asText());
        }
        if (!names.isEmpty() && !names.equals(new HashSet<>(sourceIds()))) {
            throw OpenApiError.badRequest("source_name_list: this jdm starts and stops its sources "
                    + String.join(", ", sourceIds()) + " together: list all of them or none");
        }
    }

    private static void refuseIfTrue(JsonNode body, String field, String why) {
        JsonNode v = body.path(field);
        if (!v.isMissingNode() && !v.isNull() && !v.isBoolean()) {
            throw OpenApiError.badRequest(field + ": must be true or false, got " + v);
        }
        if (v.asBoolean(false)) {
            throw OpenApiError.badRequest(field + ": " + why);
        }
    }

    private static void refuseIfSet(JsonNode body, String field, String why) {
        JsonNode v = body.path(field);
        if (!v.isMissingNode() && !v.isNull() && !(v.isTextual() && v.asText().isEmpty())) {
            throw OpenApiError.badRequest(field + ": " + why);
        }
    }
}
