/**
 * The row through which {@code jdm verify --snapshot} holds a running sync at one source position:
 * its definition and the statements the sync runs on it. Verify's side, with the whole sequence
 * drawn, is the hold package of the verify module.
 */
package io.jdm.common.hold;
