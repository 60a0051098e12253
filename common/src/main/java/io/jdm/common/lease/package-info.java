/**
 * One owner per task and source: a lease row in the target's meta schema that a process takes before
 * it writes anything for the task, renews while it runs and gives back when it stops.
 */
package io.jdm.common.lease;
