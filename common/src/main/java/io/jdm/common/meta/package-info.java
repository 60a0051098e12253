/** The tables jdm keeps for a task in the target's meta schema: {@link io.jdm.common.meta.MetaTable}. */
package io.jdm.common.meta;
