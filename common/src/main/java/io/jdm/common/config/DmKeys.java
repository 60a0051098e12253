package io.jdm.common.config;

/**
 * What jdm says about DM settings it reads another way, ignores or lacks: one text per setting,
 * shared by every reader that meets it.
 */
final class DmKeys {
    static final String OLD_BLOCK_ALLOW_LIST = "DM's name before v2.0.0; read as block-allow-list";
    /** DM reads black-white-list only where block-allow-list is empty; dmctl's get-task output writes both. */
    static final String OLD_BLOCK_ALLOW_LIST_IGNORED = "ignored: block-allow-list is set, and DM uses it";
    static final String NO_VALIDATOR = "not supported by jdm; remove it and compare source and target "
            + "with jdm verify";
    static final String NO_PHYSICAL = "physical import is not supported by jdm; use import-mode: logical";
    static final String DEPRECATED_IN_DM = "deprecated and ignored by DM; ignored";
    /** DM's ansi-quotes and enable-ansi-quotes: both no longer take effect there. */
    static final String ANSI_QUOTES = "jdm reads ANSI_QUOTES from the source's sql_mode, statement by statement, "
            + "as DM does; ignored";

    private DmKeys() {
    }
}
