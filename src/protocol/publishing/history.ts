/**
 * @module
 * `GET /api/history` query (DESIGN.md 3): `status`, `lastDays` (default 30; 0 = all), `limit` (default 25, max 1000),
 * `platforms` (comma list), `startDate`, `endDate` (ISO 8601 UTC), `autoRepostId`. Deleted posts show only with
 * `status=deleted`.
 */
import { z } from 'zod';
import { POST_STATUSES } from './post-state.js';

const integerText = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const HistoryQuery = z.strictObject({
  status: z.enum(POST_STATUSES).optional(),
  lastDays: integerText(0, 3650).optional(),
  limit: integerText(1, 1000).optional(),
  platforms: z.string().max(400).optional(),
  startDate: z.string().max(64).optional(),
  endDate: z.string().max(64).optional(),
  autoRepostId: z.string().max(100).optional(),
  type: z.enum(['now', 'schedule']).optional(),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;
