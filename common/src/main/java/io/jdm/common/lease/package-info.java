/**
 * One owner per task and source: a lease row in the target's meta schema that a process takes before
 * it writes anything for the task, renews while it runs and gives back when it stops.
 *
 * <pre>
 *  start ──► row free, expired, or its owner seen dead on this host ──► take it (one transaction)
 *    │                                                                     │
 *    └─► a live owner ──► LeaseWait: refuse at once, or say so once and    ▼
 *                         poll until it expires (or a signal stops it)   renew every renewEvery
 * </pre>
 *
 * "Seen dead" ({@code OwnerProcess}) needs the same host name, kernel boot and
 * pid namespace; everywhere else only the expiry frees a lease.
 */
package io.jdm.common.lease;
