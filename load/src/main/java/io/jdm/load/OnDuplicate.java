package io.jdm.load;

/** What a data row does when the target already has a row with the same primary or unique key. */
public enum OnDuplicate {
    /** Overwrite the existing row ({@code REPLACE INTO}). */
    REPLACE,
    /** Keep the existing row ({@code INSERT IGNORE}). */
    IGNORE,
    /** Stop with an error naming the file and offset: an empty target should not have the row. */
    ERROR
}
