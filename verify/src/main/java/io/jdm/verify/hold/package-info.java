/**
 * The hold: how {@code jdm verify --snapshot} stops a running sync at one source position.
 *
 * <pre>
 *  verify                                  {meta}.{task}_syncer_hold (target)        sync
 *  pause ──► row(token, lease) ───────────────────────────────────────────────► gate armed: no new
 *        ◄── acked_token = token ◄─────────────────────────────────────────────  transaction starts
 *  FTWRL, consistent snapshot, read P, UNLOCK
 *  holdAt(P) ──► until = P ───────────────────────────────────────────────────► read up to P, stop;
 *            ◄── acked_until = 1, acked position = P ◄─────────────────────────  writers committed
 *  compare (the lease is renewed meanwhile)
 *  release ──► row deleted ───────────────────────────────────────────────────► gate opened
 * </pre>
 *
 * The lease is kept in the target's clock; a verify that dies leaves a row whose lease runs out, and
 * the sync goes on by itself.
 */
package io.jdm.verify.hold;
