/**
 * What travels through the ring: decoded row changes and DDL with their binlog positions, and the
 * pre-allocated slot that carries them from the reader to causality to the writers.
 */
package io.jdm.sync.ring;
