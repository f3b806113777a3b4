/**
 * @module
 * `Authorization: Bearer <ADMIN_TOKEN>` for the admin API and the metrics. Both sides are hashed first, so the
 * constant-time comparison always sees equal lengths and the token's length leaks nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ErrorCode } from '@social-link-kit/protocol';
import { ApiError } from '../../core/errors.js';
import { bearerToken } from '../api-key-auth.js';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function adminTokenMatches(header: string | undefined, adminToken: string): boolean {
  const given = bearerToken(header);
  return given !== null && timingSafeEqual(digest(given), digest(adminToken));
}

export function adminAuth(adminToken: string): MiddlewareHandler {
  return async (c, next) => {
    if (!adminTokenMatches(c.req.header('authorization'), adminToken)) {
      throw new ApiError(401, ErrorCode.apiKeyInvalid, 'Admin token missing or invalid. Send it as "Authorization: Bearer <ADMIN_TOKEN>".', {
        action: 'authorization',
      });
    }
    await next();
  };
}
