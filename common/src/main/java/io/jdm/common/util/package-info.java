/** Small shared helpers: the one thread factory every unit names its threads with. */
package io.jdm.common.util;
