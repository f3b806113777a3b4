/**
 * @module
 * Spec 4.9 rule 10: personal instagram accounts cannot publish through the API (only professional ones: business
 * or creator). The account's type is what the network reported at linking (`account_type`, social_accounts).
 * The spec names no code for it; 138 is its generic instagram error, and the answer says to link a professional
 * account (`relink`). An account of unknown type (linked before the type was recorded) is let through: the
 * network itself refuses a personal one.
 */
import type { Network } from '@social-link-kit/protocol';
import type { PublishFailure } from '../../networks/publish-adapter.js';

export const PERSONAL_ACCOUNT_CODE = 138;

export function personalAccountRefusal(platform: Network, accountType: string | null | undefined): PublishFailure | null {
  if (platform !== 'instagram' || accountType?.toUpperCase() !== 'PERSONAL') return null;
  return {
    kind: 'failed',
    code: PERSONAL_ACCOUNT_CODE,
    message: 'This instagram account is a personal account, which cannot publish through the API. Switch it to a professional (business or creator) account and link it again.',
    retryAvailable: false,
    relink: true,
    details: { accountType: 'PERSONAL' },
  };
}
