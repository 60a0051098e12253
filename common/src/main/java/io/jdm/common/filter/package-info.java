/**
 * Which schemas, tables and binlog events a task moves, and under which names, shared by dump,
 * load and sync so that all three units agree.
 *
 * <pre>
 * source name ─► TableFilter  (block-allow-list: replicate-do/ignore-db, then -table)
 *             ─► EventFilter  (filters: per event type and DDL text; sync only)
 *             ─► TableRouter  (routes: table-level rule, else schema-level rule)  ─► target name
 * </pre>
 *
 * Rules are matched by {@link io.jdm.common.config.NamePattern}: {@code ~regex} or a wildcard
 * with {@code *}, {@code ?} and {@code [...]}. Everything here is immutable and thread-safe;
 * lookups are cached because sync asks for every row event.
 */
package io.jdm.common.filter;
