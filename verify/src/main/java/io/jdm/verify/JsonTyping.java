package io.jdm.verify;

import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * How a run compares MySQL's JSON columns: by text, or by value and type.
 *
 * <p>MySQL's binary JSON keeps types its text does not show: a DATE, TIME or DATETIME prints as the
 * string of that date, a DECIMAL as the double of the same digits ({@code 1.5}), an UNSIGNED
 * INTEGER as the INTEGER, an opaque BLOB as the string {@code "base64:type15:…"}. A copy that
 * turned one into the other has the same text. What MySQL offers to see them (tried on 5.7.22 and
 * 8.0.31):
 * <ul>
 * <li>{@code CAST(j AS BINARY)}, {@code HEX(j)}, {@code WEIGHT_STRING(j)}: the text, not the stored
 *     form, on both versions;
 * <li>{@code JSON_STORAGE_SIZE}: the stored size, which a change of type need not change (a DECIMAL
 *     of 9 digits and a DOUBLE both take 8 bytes);
 * <li>{@code j1 = j2}, {@code JSON_CONTAINS}: within one server only, and numbers compare by value
 *     across INTEGER, DOUBLE and DECIMAL (MySQL 8.0 even skips an UPDATE whose new document equals
 *     the old that way, so only a REPLACE changes such a type);
 * <li>{@code JSON_SEARCH(j, 'all', '%')}: the paths of the strings; nothing on numbers;
 * <li>{@code JSON_TABLE(j, '$**.*' …)} (8.0 only): every value at any depth with its
 *     {@code JSON_TYPE}, but at about 100 times the cost of the text checksum (50,000 documents of
 *     eight values: 17-27 s against 0.2 s);
 * <li>{@code JSON_TYPE(JSON_EXTRACT(j, path))}: the exact type at one path, on both versions, for
 *     about as much as hashing the text (seven paths of 50,000 documents: 0.1-0.4 s).
 * </ul>
 *
 * <p>So, where both servers are MySQL, two documents are the same when their texts are the same
 * JSON value (numbers by value) and both servers give the same {@code JSON_TYPE} at every value
 * whose type the text does not show ({@link JsonScalars}: numbers, and strings a temporal or opaque
 * value prints as); the text fixes every other type, and equal texts mean the same paths. The
 * stored layout, and whether a document was written by INSERT, JSON_SET or a partial update, do
 * not enter the comparison.
 * <ul>
 * <li>The chunk checksum hashes the types at the paths the table's documents commonly hold (learned
 *     from its first rows, {@link TablePlan#typedPaths}); a document with such a value elsewhere
 *     sends its chunk to the row-by-row look ({@link ChecksumSql#jsonCovered}). The same SQL runs on
 *     5.7 and 8.0. It makes a JSON table's checksum four to eight times as costly as the text's
 *     (50,000 documents of 140 bytes with seven typed values: 0.7-1.3 s against 0.16-0.4 s on 8.0);
 *     a table without a typed JSON column runs the very SQL it ran before.
 * <li>The row-by-row look asks both servers the types at each document's own paths, by key
 *     ({@link JsonTypeCheck}), and the fix SQL writes the source's documents with them.
 * </ul>
 *
 * <p>MariaDB's JSON is LONGTEXT, and TiDB's JSON types were not tried against MySQL's: with either
 * on one side, JSON is compared by text, as JSON values (key order and spacing aside). A table without a
 * key cannot be asked types by row, and a table merged from shards is compared shard by shard
 * against one target: their JSON is compared by text too.
 */
enum JsonTyping {
    /** By text, as JSON values. */
    TEXT,
    /** By value and type. */
    TYPED;

    /** What a source and a target allow. */
    static JsonTyping of(Connection source, Connection target) throws SQLException {
        return Flavor.detect(source) == Flavor.MYSQL && Flavor.detect(target) == Flavor.MYSQL ? TYPED : TEXT;
    }

    /** True when documents are compared by type as well as by value. */
    boolean typed() {
        return this == TYPED;
    }
}
