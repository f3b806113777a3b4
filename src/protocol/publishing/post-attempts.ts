/**
 * @module
 * A post's timeline (`GET /api/post/:id/attempts`, issue 30): every attempt per network, oldest first. `trigger` says
 * what started it: `immediate` (a post sent now), `schedule` (its time came), `retry` (backoff after a failure),
 * `manual` (`PUT /api/post/retry`), `reconcile` (a commit interrupted earlier, looked up on the network first),
 * `status-check` (a network still processing), `first-comment`. `reconcile` is the look-up's verdict: `found` (the
 * interrupted commit was on the network and was adopted), `not-found` (it never arrived; committed again),
 * `undecided` (ended `unconfirmed`, never sent again).
 */
import { z } from 'zod';
import { Network } from '../networks.js';

export const ATTEMPT_TRIGGERS = ['immediate', 'schedule', 'retry', 'manual', 'reconcile', 'status-check', 'first-comment'] as const;
export const ATTEMPT_OUTCOMES = ['success', 'pending', 'error', 'retry', 'abandoned'] as const;

export const PostAttempt = z.object({
  platform: Network,
  /** ISO 8601 UTC, service clock. */
  at: z.string(),
  trigger: z.enum(ATTEMPT_TRIGGERS),
  outcome: z.enum(ATTEMPT_OUTCOMES),
  /** The network's (or the service's) error code and message, when the attempt did not succeed. */
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  /** When it runs again (`outcome: 'retry'`). */
  retryAt: z.string().nullable(),
  reconcile: z.enum(['found', 'not-found', 'undecided']).nullable(),
});
export type PostAttempt = z.infer<typeof PostAttempt>;

export const PostAttemptsResponse = z.object({ status: z.literal('success'), id: z.string(), attempts: z.array(PostAttempt) });
export type PostAttemptsResponse = z.infer<typeof PostAttemptsResponse>;
