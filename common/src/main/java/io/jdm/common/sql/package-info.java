/**
 * SQL text: identifier quoting and table names. The value encoder that turns every MySQL type
 * into SQL literals lives here too, so dump files, sync statements and verify share one encoder.
 * It reads a column through {@link io.jdm.common.sql.TypedColumn}, so the schema model sits above it.
 */
package io.jdm.common.sql;
