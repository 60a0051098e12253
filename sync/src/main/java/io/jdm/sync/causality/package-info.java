/**
 * Causality as DM has it: keys pick a writer by hash, a change whose keys another writer still
 * holds uncommitted waits for a drain, so rows of one key are applied in binlog order.
 */
package io.jdm.sync.causality;
