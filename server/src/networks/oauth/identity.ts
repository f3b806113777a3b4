/**
 * @module
 * Reading a network's identity answer: the account id, display name and username, wherever the network puts them.
 */
import type { NetworkIdentity } from './definition.js';

type Json = Record<string, unknown>;
export const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);
export const obj = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

/** Reads `{id|sub, name, username}` at the top level or under `data`. */
export function plainIdentity(json: unknown): NetworkIdentity {
  const root = obj(json);
  const data = root.data && typeof root.data === 'object' && !Array.isArray(root.data) ? obj(root.data) : root;
  const id = str(data.id) ?? str(data.sub) ?? str(data.user_id) ?? str(data.open_id);
  if (!id) throw new Error('The network did not return an account id.');
  const identity: NetworkIdentity = {
    id,
    displayName: str(data.name) ?? str(data.display_name) ?? str(data.localizedFirstName),
    username: str(data.username) ?? str(data.preferred_username) ?? str(data.email),
  };
  // Only networks that report an account type (instagram: BUSINESS, MEDIA_CREATOR, PERSONAL) carry one.
  const accountType = str(data.account_type);
  if (accountType) identity.accountType = accountType;
  return identity;
}
