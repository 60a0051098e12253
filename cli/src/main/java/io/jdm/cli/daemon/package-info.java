/**
 * The long-running side of jdm: the HTTP endpoint bound to 127.0.0.1 unless configured:
 * {@code GET /status} (JSON in the shape of DM's query-status), {@code GET /metrics} (Prometheus
 * text), {@code GET /} and {@code /ui} (a page that shows {@code /status} live) and
 * {@code POST /tasks/pause}, {@code /tasks/resume}, {@code /tasks/stop} (dmctl's pause-task,
 * resume-task, stop-task, answered as DM's OperateTaskResponse).
 *
 * <pre>
 * connection ─► RequestLimits ─► /status, /metrics, /, /ui ────────────────► answer (open; no secret)
 * (at most 32;  body over 64 KiB: 413
 *  request in    └─► /tasks/* ─► ControlAccess ─► operate ─────────────────► answer
 *  10 s or                       token? Bearer or 401
 *  closed)                       none, loopback: open
 *                                none, elsewhere: 403
 * </pre>
 */
package io.jdm.cli.daemon;
