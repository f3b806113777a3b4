/**
 * @module
 * API resources of the link-session service: what the client sends and what it gets back.
 * The server validates inbound fields itself (each with its own error code); these schemas
 * describe responses, which the client validates.
 */
import { z } from 'zod';
import type { Locale } from '../i18n/locales.js';
import { InstagramLinkMethod, Network } from './networks.js';
import { AccountHealth } from './account-health.js';

const isoDate = z.string().datetime({ offset: true });

export const LinkSessionEmail = z.object({
  to: z.string(),
  contactEmail: z.string(),
  company: z.string(),
  termsUrl: z.string(),
  privacyUrl: z.string(),
});
export type LinkSessionEmail = z.infer<typeof LinkSessionEmail>;

/** Body of `POST /profiles/link-sessions` (spec 4.6). `{}` is valid. */
export interface CreateLinkSessionRequest {
  /** Minutes, 1-2880; needs the max-pack add-on. Default 5. */
  expiresIn?: number;
  /** Integrator page origin (`https://app.example`) or native app scheme URL (`com.example.app:/linked`). */
  origin?: string;
  instagramLinkMethod?: InstagramLinkMethod;
  email?: Partial<LinkSessionEmail>;
  allowedSocial?: Network[];
  /** Where direct mode returns after linking. */
  redirect?: string;
  domain?: string;
  /** Accepted and ignored (spec 4.6). */
  privateKey?: string;
  /** The hosted page's language (`en`, `es`, `fr`, `de`, `pt-BR`, `ja`, `ar`); without it, the browser's. */
  locale?: Locale;
  /** Link this network again (an `account.needs_relink` event names it): the page shows only it unless `allowedSocial` lists more. */
  relink?: Network;
}

export const EmailError = z.object({ code: z.number().int(), message: z.string(), details: z.string() });
export type EmailError = z.infer<typeof EmailError>;

export const CreateLinkSessionResponse = z.object({
  status: z.literal('success'),
  sessionId: z.string(),
  url: z.string().url(),
  expiresAt: isoDate,
  title: z.string(),
  emailSent: z.boolean().optional(),
  emailError: EmailError.optional(),
});
export type CreateLinkSessionResponse = z.infer<typeof CreateLinkSessionResponse>;

export const LINK_SESSION_STATES = ['active', 'expired', 'revoked'] as const;

/** `GET /profiles/link-sessions/{sessionId}` (spec 4.7). */
export const LinkSession = z.object({
  status: z.literal('success'),
  sessionId: z.string(),
  state: z.enum(LINK_SESSION_STATES),
  refId: z.string(),
  title: z.string(),
  createdAt: isoDate,
  expiresAt: isoDate,
  revokedAt: isoDate.nullable(),
  completedAt: isoDate.nullable(),
  lastCompletedAt: isoDate.nullable(),
  completedNetworks: z.array(Network),
  origin: z.string().nullable(),
  allowedSocial: z.array(Network).nullable(),
  /** The locale the session asked for; optional so answers of older services still parse. */
  locale: z.string().nullable().optional(),
});
export type LinkSession = z.infer<typeof LinkSession>;

export const RevokeLinkSessionResponse = z.object({
  status: z.literal('success'),
  sessionId: z.string(),
  revokedAt: isoDate,
});
export type RevokeLinkSessionResponse = z.infer<typeof RevokeLinkSessionResponse>;

/**
 * A suspended profile (spec 7, code 249: a repeat community standards violation unlinks the account and suspends
 * the profile): since when, why, and which network's account caused it. Nothing is published or linked for the
 * profile (code 105) until the Primary Profile lifts it with `PATCH /profiles` `{refId, suspended: false}`.
 */
export const ProfileSuspension = z.object({
  since: isoDate,
  code: z.number().int(),
  platform: Network,
  reason: z.string(),
});
export type ProfileSuspension = z.infer<typeof ProfileSuspension>;

export const UserProfile = z.object({
  refId: z.string(),
  title: z.string(),
  createdAt: isoDate,
  /** Present while the profile is suspended. */
  suspension: ProfileSuspension.optional(),
});
export type UserProfile = z.infer<typeof UserProfile>;

export const CreateProfileResponse = UserProfile.extend({
  status: z.literal('success'),
  /** Shown once; the service keeps only its hash. */
  profileKey: z.string(),
});
export type CreateProfileResponse = z.infer<typeof CreateProfileResponse>;

export const ListProfilesResponse = z.object({ status: z.literal('success'), profiles: z.array(UserProfile) });
export type ListProfilesResponse = z.infer<typeof ListProfilesResponse>;

export const DeleteProfileResponse = z.object({ status: z.literal('success'), refId: z.string() });
export type DeleteProfileResponse = z.infer<typeof DeleteProfileResponse>;

/** `PATCH /profiles` `{refId, suspended: false}`: the suspension lifted (`lifted` false when there was none). */
export const LiftSuspensionResponse = z.object({ status: z.literal('success'), refId: z.string(), lifted: z.boolean() });
export type LiftSuspensionResponse = z.infer<typeof LiftSuspensionResponse>;

export const UnlinkResponse = z.object({ status: z.literal('success'), platform: Network, refId: z.string() });
export type UnlinkResponse = z.infer<typeof UnlinkResponse>;

export const LinkedAccount = z.object({
  platform: Network,
  displayName: z.string().nullable(),
  username: z.string().nullable(),
  id: z.string(),
  linkedAt: isoDate,
  /** The account's health (account-health.ts); on `GET /user`. */
  health: AccountHealth.optional(),
});
export type LinkedAccount = z.infer<typeof LinkedAccount>;

/** `GET /user`: the profile and its linked accounts. */
export const UserResponse = z.object({
  status: z.literal('success'),
  refId: z.string(),
  title: z.string(),
  activeSocialAccounts: z.array(Network),
  displayNames: z.array(LinkedAccount),
  monthlyPostCount: z.number().optional(),
  monthlyPostQuota: z.number().nullable().optional(),
  /** The linked threads account may restrict posts to countries (`threadsOptions.allowCountries`). */
  isEligibleForGeoRestrictions: z.boolean().optional(),
  /** Present while the profile is suspended (see `ProfileSuspension`). */
  suspension: ProfileSuspension.optional(),
});
export type UserResponse = z.infer<typeof UserResponse>;
