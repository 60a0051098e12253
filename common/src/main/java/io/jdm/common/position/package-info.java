/**
 * Binlog positions (file, offset, GTID set) and the source flavor. A position is the one value
 * that passes from the dump unit (snapshot) to the sync unit (start point).
 */
package io.jdm.common.position;
