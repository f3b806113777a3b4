/**
 * @module
 * Requests and answers of the automations API: comment-triggered private replies on instagram and facebook.
 */
import { z } from 'zod';

export const AUTOMATION_PLATFORMS = ['instagram', 'facebook'] as const;

export const CreateAutomationRequest = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  /** A comment containing any of these words (whole words, any case) triggers it; empty = every comment. */
  triggerWords: z.array(z.string().min(1).max(50)).max(20),
  /** The private message sent to the commenter. */
  replyText: z.string().min(1).max(1000),
  platforms: z.array(z.enum(AUTOMATION_PLATFORMS)).min(1).max(2),
  /** Only comments under this service post. */
  postId: z.string().min(1).max(100).optional(),
});
export type CreateAutomationRequest = z.infer<typeof CreateAutomationRequest>;

export const UpdateAutomationRequest = z.strictObject({ paused: z.boolean() });

export const AutomationSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  triggerWords: z.array(z.string()),
  replyText: z.string(),
  platforms: z.array(z.string()),
  postId: z.string().nullable(),
  paused: z.boolean(),
  created: z.string(),
});

export const AutomationActivitySchema = z.looseObject({
  id: z.string(),
  status: z.enum(['pending', 'sent', 'failed', 'auth_error']),
  platform: z.string(),
  commentId: z.string(),
  postId: z.string(),
  commenter: z.string(),
  created: z.string(),
  actionResults: z.array(z.looseObject({ action: z.string(), status: z.string(), errorDetails: z.looseObject({ code: z.number(), message: z.string() }).optional() })),
});

export const CreateAutomationResponse = z.looseObject({ status: z.literal('success'), automation: AutomationSchema });
export const ListAutomationsResponse = z.looseObject({ status: z.literal('success'), automations: z.array(AutomationSchema) });
export const AutomationActivityResponse = z.looseObject({ status: z.literal('success'), id: z.string(), activity: z.array(AutomationActivitySchema) });
