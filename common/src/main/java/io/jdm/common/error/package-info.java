/**
 * The two exception families every unit throws, and the one classifier that sorts a
 * {@link java.sql.SQLException} into them. A user sees {@link io.jdm.common.error.JdmException#getMessage()}
 * as one line; the cause chain is for {@code --verbose}.
 */
package io.jdm.common.error;
