package io.jdm.common.config;

/**
 * What a data row does when the target already has a row with the same primary or unique key
 * ({@code loaders.*.on-duplicate}).
 */
public enum OnDuplicate {
    /** Overwrite the existing row ({@code REPLACE INTO}): the dumped row wins. */
    REPLACE,
    /** Keep the existing row ({@code INSERT IGNORE}): the target's row wins. */
    IGNORE,
    /** Stop with an error naming the file and offset: an empty target should not have the row. */
    ERROR
}
