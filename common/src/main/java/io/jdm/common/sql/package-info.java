/**
 * SQL text: identifier quoting and table names. The value encoder that turns every MySQL type
 * into SQL literals lives here too, so dump files, sync statements and verify share one encoder.
 */
package io.jdm.common.sql;
