/**
 * @module
 * Numeric error codes of the spec (section 7) that this project returns, with the meaning we give the
 * link-session range 501-513, whose individual meanings the spec leaves open. Clients match on these numbers.
 */
export const ErrorCode = {
  /** Missing or incorrect parameters, malformed JSON, oversize body, unknown route. */
  badRequest: 101,
  /** API key missing or invalid. */
  apiKeyInvalid: 102,
  /** Profile-Key unknown for this API key. */
  profileNotFound: 103,
  /** Feature needs a plan this account does not have (webhooks: Premium, Launch, Business, Enterprise). */
  planRequired: 104,
  /** The profile is suspended (a repeat facebook community standards block, 249): nothing is published or linked. */
  profileSuspended: 105,
  /** Missing, empty or invalid platform(s). */
  platformInvalid: 163,
  /** Link session email requested without `to`. */
  emailToMissing: 188,
  /** Link email failed to send (reported inside `emailError`). */
  emailSendFailed: 333,
  /** The link is unknown, expired or revoked. One answer for all three so it reveals nothing to guessers. */
  linkInvalid: 501,
  /** The network is not allowed by this link session (`allowedSocial`). */
  networkNotAllowed: 502,
  /** The network cannot be connected on this service right now (not configured). */
  networkUnavailable: 503,
  /** `expiresIn` needs the max-pack add-on. */
  expiresInNeedsMaxPack: 504,
  /** `origin` is not an https origin, loopback origin or reverse-DNS app scheme, or not in the allowlist. */
  originInvalid: 505,
  /** `domain` is missing (account has several) or unknown. */
  domainInvalid: 506,
  /** `allowedSocial` is not an array of known networks. */
  allowedSocialInvalid: 507,
  /** `instagramLinkMethod` is not one of the valid values. */
  instagramLinkMethodInvalid: 508,
  /** `redirect` is not a string holding an absolute http(s) or app-scheme URL. */
  redirectInvalid: 509,
  /** Too many requests: link-session creation, token lookups or connection starts over their limit. */
  rateLimited: 510,
  /** OAuth callback with an unknown, expired, reused or mismatched `state`. */
  oauthStateInvalid: 511,
  /** The network refused the code exchange, or the account identity could not be read. */
  oauthExchangeFailed: 512,
  /** Connecting the account failed; arrives as `connect:error`. */
  connectFailed: 513,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
