/**
 * Verify: proves a target equals its source, the way sync-diff-inspector does.
 *
 * <pre>
 *  VerifyConfig ─► Verifier.run()
 *                    plan: tables ─► key-range chunks (integer key: MIN/MAX arithmetic;
 *                          other keys: one ordered key scan; no key: whole table)
 *                    per chunk, both sides at once: COUNT, XOR and SUM of CRC32(row text)
 *                    differs? stream both sides ordered by key, merge in Java, compare values
 *                  ─► VerifyReport (table, JSON, exit code) + fix SQL (REPLACE / DELETE, not run)
 * </pre>
 *
 * The checksum text is built from the source column types and is only a fast filter: a chunk that
 * checksums differently is decided by comparing canonical values, so formatting never makes a
 * correct copy look different. MySQL JSON on two MySQL servers is compared by value and type
 * ({@link io.jdm.verify.JsonTyping}): the checksum hashes the types at the paths a table's documents
 * commonly hold, and rows are asked their types by path.
 */
package io.jdm.verify;
