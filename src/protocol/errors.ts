/**
 * @module
 * The error envelope of spec section 7.
 */
import { z } from 'zod';

export const ErrorEnvelope = z.object({
  status: z.literal('error'),
  action: z.string(),
  code: z.number().int(),
  message: z.string(),
  details: z.unknown().optional(),
  retryAvailable: z.boolean().optional(),
  relink: z.boolean().optional(),
  noAutoRetry: z.boolean().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
