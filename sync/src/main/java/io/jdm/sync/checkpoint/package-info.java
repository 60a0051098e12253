/**
 * Sync checkpoints in the target: per-writer positions committed with the writer's data, the
 * global checkpoint, and the filter that makes a restart skip exactly what was already applied.
 */
package io.jdm.sync.checkpoint;
