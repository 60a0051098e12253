/**
 * The long-running side of jdm: the HTTP endpoint bound to 127.0.0.1 unless configured:
 * {@code GET /status} (JSON in the shape of DM's query-status), {@code GET /metrics} (Prometheus
 * text), {@code GET /} and {@code /ui} (a page that shows {@code /status} live),
 * {@code POST /tasks/pause}, {@code /tasks/resume}, {@code /tasks/stop} (dmctl's pause-task,
 * resume-task, stop-task, answered as DM's OperateTaskResponse) and under {@code /api/v1} the part of
 * dm-master's OpenAPI one process answers ({@code OpenApi}).
 *
 * <pre>
 * connection ─► RequestLimits ─► /status, /metrics, /, /ui, GET /api/v1/* ──► answer (open; no secret)
 * (at most 32;  body over 64 KiB: 413
 *  request in    ├─► /tasks/* ──────────┐
 *  10 s or       └─► POST /api/v1/* ────┴─► ControlAccess ─► operate ──────► answer
 *  closed)                                 token? Bearer or 401
 *                                          none, loopback: open
 *                                          none, elsewhere: 403
 * </pre>
 */
package io.jdm.cli.daemon;
