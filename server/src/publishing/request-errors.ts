/**
 * @module
 * Turns a zod failure of a publishing request into the spec's envelope: 163 when the `platforms` field is the
 * problem, else 101; `details.issues` names each field (and `details.unknownKeys` every unknown key).
 */
import type { z } from 'zod';
import { ApiError } from '../core/errors.js';

export function requestError(error: z.ZodError, action: string): ApiError {
  const unknownKeys: string[] = [];
  const issues = error.issues.slice(0, 20).map((issue) => {
    const field = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) unknownKeys.push(field ? `${field}.${key}` : key);
    }
    return { field: field || '(body)', message: issue.message };
  });
  const platformsIssue = error.issues.some((issue) => issue.path[0] === 'platforms');
  const first = issues[0]!;
  const message = unknownKeys.length > 0 ? `Unknown field(s): ${unknownKeys.join(', ')}.` : `"${first.field}": ${first.message}`;
  return new ApiError(400, platformsIssue ? 163 : 101, message, {
    action,
    details: { issues, ...(unknownKeys.length > 0 && { unknownKeys }) },
  });
}
