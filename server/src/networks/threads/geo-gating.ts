/**
 * @module
 * Whether a threads account may restrict a post to countries (`allowlisted_country_codes`): the Threads API's
 * profile field `is_eligible_for_geo_gating` on `GET /me`. Read live, on create of a post with
 * `threadsOptions.allowCountries` and for `GET /api/user`'s `isEligibleForGeoRestrictions`, so a change of the
 * account's standing shows without relinking.
 */
import type { PublishFailure } from '../publish-adapter.js';
import { classifyGraphError } from '../meta/classify.js';
import { callGraph, type GraphContext } from '../meta/graph.js';

export async function threadsGeoEligible(ctx: GraphContext): Promise<boolean | PublishFailure> {
  const answer = await callGraph(ctx, 'GET', '/me', { fields: 'id,is_eligible_for_geo_gating' });
  if (!answer.ok) return classifyGraphError('threads', answer);
  return answer.body.is_eligible_for_geo_gating === true;
}
