/**
 * SQL text: identifier quoting and table names, and the one reader of SQL text:
 * {@link io.jdm.common.sql.SqlLexer}, a streaming state machine over bytes (literals, quoted
 * names, comments, conditional comments, top-level semicolons) that the load splits dump files
 * with, and {@link io.jdm.common.sql.SqlScanner}, its String API, that every other reader of
 * statements goes through (the sync's DDL parser, the load's head rewriters).
 *
 * <pre>
 *  dump file bytes ──► SqlLexer.scan (pieces of any size) ──► statements, byte offsets (load)
 *  statement text  ──► SqlScanner ──► SqlLexer.feed ──► segments, blanks, tokens, code characters
 * </pre>
 *
 * The value encoder that turns every MySQL type into SQL literals lives here too, so dump files,
 * sync statements and verify share one encoder. It reads a column through
 * {@link io.jdm.common.sql.TypedColumn}, so the schema model sits above it. MySQL's JSON has types
 * its text cannot carry; {@link io.jdm.common.sql.JsonDocument} holds a document's text with the
 * values to set back with their type, {@link io.jdm.common.sql.JsonTextTypes} finds those in
 * a dump's text (from the text alone, and with the source's word on which strings are strings),
 * and {@link io.jdm.common.sql.MySqlDoubles} prints a double as MySQL does.
 * {@link io.jdm.common.sql.JsonTextWalker} is the one reader of that text, for the dump and for
 * the values whose types verify asks the servers.
 */
package io.jdm.common.sql;
