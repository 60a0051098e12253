package io.jdm.dump;

/**
 * A piece of one table: rows matching {@code condition} (a key range; null for the whole table),
 * read in {@code orderBy} order (null when the table has no usable key).
 */
record Chunk(TableJob table, int index, String condition, String orderBy) {
    /** Put once per worker after the last chunk; a halted dump's workers end without it. */
    static final Chunk END = new Chunk(null, 0, null, null);

    /** {@code `db`.`t` chunk 3 (`id` >= 100 AND `id` < 200)}, for messages. */
    String describe() {
        return table.name().quoted() + " chunk " + index + (condition == null ? " (whole table)" : " (" + condition + ")");
    }
}
