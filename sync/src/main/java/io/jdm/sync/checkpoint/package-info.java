/**
 * Sync checkpoints in the target: per-writer positions committed with the writer's data, the
 * global checkpoint, and the filter that makes a restart skip exactly what was already applied;
 * beside them what must change only with the checkpoint: the DDL in progress ({@link DdlMarkers})
 * and the online DDL statements waiting for a cut-over ({@link OnlineDdlStore}).
 */
package io.jdm.sync.checkpoint;
