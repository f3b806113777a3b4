/**
 * Everything the hosted page validates with zod, in one module that is loaded after the first render
 * (schemas.ts): zod is half of the page's script, and the first screen needs none of it.
 */
export {
  BotCodeResponse,
  CredentialsConnectResponse,
  DisconnectResponse,
  LinkApiErrorFields,
  SessionView,
  StartConnectResponse,
} from '@social-link-kit/protocol/hosted-api.js';
export { parseOAuthResultMessage } from '@social-link-kit/protocol/oauth-result.js';
