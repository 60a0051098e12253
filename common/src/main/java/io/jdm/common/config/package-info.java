/**
 * The task file: DM's YAML keys turned into immutable records, checked once.
 *
 * <pre>
 * task.yaml ─► YamlTree (raw scalars, no aliases, no duplicate keys)
 *           ─► EnvSubstitution (${VAR}, ${VAR:-default}; remembers which values came from it)
 *           ─► TaskReader + Section (walk the tree; every key declared with type, default, rule)
 *           ─► TaskConfig, or ConfigException listing every problem at once
 * </pre>
 *
 * The records carry no Jackson annotations: the tree is walked by hand so that an unknown key,
 * a wrong type and a broken reference all come back together, each with its YAML path. Values
 * that came from the environment are never echoed back, and {@link io.jdm.common.config.Secret}
 * keeps passwords out of every {@code toString}.
 */
package io.jdm.common.config;
