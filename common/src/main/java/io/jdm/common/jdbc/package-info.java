/**
 * Connections: a {@link io.jdm.common.jdbc.ConnectionSpec} (what the task file says about a server)
 * and the pools and single connections built from it, all with the same session settings.
 */
package io.jdm.common.jdbc;
