/**
 * @module
 * Post and platform states (spec 3, DESIGN.md 3): `awaiting approval` → `scheduled` ⇄ `paused` → `processing` →
 * `success` | `error`; a platform stays `pending` (tiktok id, first comment) until confirmed; `deleted`.
 */
import { z } from 'zod';

export const POST_STATUSES = ['awaiting approval', 'scheduled', 'paused', 'processing', 'pending', 'success', 'error', 'deleted'] as const;
export const PostStatus = z.enum(POST_STATUSES);
export type PostStatus = z.infer<typeof PostStatus>;

/** One platform of a post: `queued` until its attempt runs. */
export const PLATFORM_STATUSES = ['queued', 'processing', 'pending', 'success', 'error', 'deleted'] as const;
export type PlatformStatus = (typeof PLATFORM_STATUSES)[number];

/** States a post can still be changed in with `PATCH /api/post`. */
export const EDITABLE_STATUSES: readonly PostStatus[] = ['awaiting approval', 'scheduled', 'paused'];
