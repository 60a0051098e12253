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
 *
 * <p>The words the rules are written in live here too, since the task file names them and the
 * filter package applies them: {@link io.jdm.common.config.NamePattern},
 * {@link io.jdm.common.config.EventType}, {@link io.jdm.common.config.Action}; so do the unit
 * settings both the reader and the units use ({@link io.jdm.common.config.Consistency},
 * {@link io.jdm.common.config.Compression}, {@link io.jdm.common.config.OnDuplicate}).
 */
package io.jdm.common.config;
