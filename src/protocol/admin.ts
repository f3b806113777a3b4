/**
 * @module
 * The operator's admin API (`/admin/api`, guarded by `ADMIN_TOKEN`; the same operations as `social-link-admin`).
 * Not part of the spec: these paths and fields are ours. Requests are strict (unknown fields are refused).
 */
import { BRANDING_NAME_MAX } from './branding.js';
import { z } from 'zod';
import { InstagramLinkMethod, Network } from './networks.js';
import { parseSessionOrigin } from './origin.js';

export const PLANS = ['free', 'premium', 'launch', 'business', 'enterprise'] as const;
export const Plan = z.enum(PLANS);
export type Plan = z.infer<typeof Plan>;

/** Add-ons an account can have on top of its plan. `max-pack`: `expiresIn`, the frame-mode widget. */
export const ADD_ONS = ['max-pack'] as const;
export const AddOn = z.enum(ADD_ONS);
export type AddOn = z.infer<typeof AddOn>;

/** `own-app`: twitter-bound requests need the integrator's own app credentials (spec 5.6); `service-app`: the service's app may be used. */
export const TWITTER_CREDENTIALS_POLICIES = ['own-app', 'service-app'] as const;
export const TwitterCredentialsPolicy = z.enum(TWITTER_CREDENTIALS_POLICIES);
export type TwitterCredentialsPolicy = z.infer<typeof TwitterCredentialsPolicy>;

/** A linking domain: the `domain` of link URLs; lower-case letters, digits, dots and dashes. */
export const LinkingDomain = z.string().regex(/^[a-z0-9](?:[a-z0-9.-]{0,61}[a-z0-9])?$/, 'lower-case letters, digits, "." and "-", 1 to 63 characters');

/** An https origin (http only on loopback) or a native app's reverse-DNS scheme URL, as a session `origin`. */
export const AllowedOrigin = z.string().max(2048).refine((value) => parseSessionOrigin(value) !== null, 'an https origin or an app scheme URL');

export const Branding = z.strictObject({
  name: z.string().min(1).max(BRANDING_NAME_MAX).optional(),
  logoUrl: z.url({ protocol: /^https$/ }).max(2048).optional(),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb').optional(),
});
export type Branding = z.infer<typeof Branding>;

export const AdminCreateAccountRequest = z.strictObject({
  name: z.string().min(1).max(200),
  plan: Plan.optional(),
  addOns: z.array(AddOn).max(ADD_ONS.length).optional(),
  domains: z.array(LinkingDomain).min(1).max(20).optional(),
  allowedOrigins: z.array(AllowedOrigin).max(100).optional(),
});
export type AdminCreateAccountRequest = z.infer<typeof AdminCreateAccountRequest>;

/** `PATCH /admin/api/accounts/{id}`: only the fields sent change; `branding: null` removes it. */
export const AdminAccountChanges = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  plan: Plan.optional(),
  addOns: z.array(AddOn).max(ADD_ONS.length).optional(),
  domains: z.array(LinkingDomain).min(1).max(20).optional(),
  allowedOrigins: z.array(AllowedOrigin).max(100).optional(),
  instagramLinkMethod: InstagramLinkMethod.optional(),
  twitterCredentialsPolicy: TwitterCredentialsPolicy.optional(),
  branding: Branding.nullable().optional(),
});
export type AdminAccountChanges = z.infer<typeof AdminAccountChanges>;

/** `PUT /admin/api/profiles/{profile}/quota`: posts per calendar month (UTC); null = the plan's default. */
export const AdminQuotaRequest = z.strictObject({
  monthlyPostQuota: z.int().min(0).max(10_000_000).nullable(),
});
export type AdminQuotaRequest = z.infer<typeof AdminQuotaRequest>;

export const AdminAccount = z.object({
  id: z.string(),
  name: z.string(),
  plan: Plan,
  addOns: z.array(AddOn),
  domains: z.array(z.string()),
  allowedOrigins: z.array(z.string()),
  instagramLinkMethod: InstagramLinkMethod,
  twitterCredentialsPolicy: TwitterCredentialsPolicy,
  branding: Branding.nullable(),
  primaryProfile: z.object({ id: z.string(), refId: z.string() }).nullable(),
  apiKeys: z.int(),
  profiles: z.int(),
  createdAt: z.string(),
});
export type AdminAccount = z.infer<typeof AdminAccount>;

export const AdminAccountResponse = z.object({ status: z.literal('success'), account: AdminAccount });
export const AdminAccountListResponse = z.object({ status: z.literal('success'), accounts: z.array(AdminAccount) });
/** The new API key is in this answer only; the service keeps its SHA-256. */
export const AdminCreateAccountResponse = z.object({ status: z.literal('success'), account: AdminAccount, apiKey: z.string() });
export const AdminApiKeyResponse = z.object({ status: z.literal('success'), accountId: z.string(), apiKey: z.string() });
export const AdminQuotaResponse = z.object({ status: z.literal('success'), profileId: z.string(), monthlyPostQuota: z.int().nullable() });

/**
 * `ok`; `expiring`: the access token ends within 7 days; `expired`: it ended but a refresh token can renew it;
 * `needs relink`: it ended without a refresh token, or the stored tokens cannot be opened with today's keys.
 */
export const LINKED_ACCOUNT_STATES = ['ok', 'expiring', 'expired', 'needs relink'] as const;
export const LinkedAccountState = z.enum(LINKED_ACCOUNT_STATES);
export type LinkedAccountState = z.infer<typeof LinkedAccountState>;

export const AdminLinkedAccount = z.object({
  platform: Network,
  displayName: z.string().nullable(),
  username: z.string().nullable(),
  linkedAt: z.string(),
  tokenExpiresAt: z.string().nullable(),
  state: LinkedAccountState,
});
export type AdminLinkedAccount = z.infer<typeof AdminLinkedAccount>;

export const AdminLinkedAccountsResponse = z.object({
  status: z.literal('success'),
  accountId: z.string(),
  profiles: z.array(
    z.object({
      id: z.string(),
      refId: z.string(),
      title: z.string(),
      isPrimary: z.boolean(),
      monthlyPostQuota: z.int().nullable(),
      linkedAccounts: z.array(AdminLinkedAccount),
    }),
  ),
});
export type AdminLinkedAccountsResponse = z.infer<typeof AdminLinkedAccountsResponse>;
