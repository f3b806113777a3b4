/**
 * @module
 * Migration "locale and branding": a link session's `locale` (the hosted page's language, validated against
 * src/i18n/locales.ts) and an account's `branding` (JSON text of src/protocol/branding.ts, like the other JSON
 * columns, so both backends share the row mappers). Both are nullable: older rows mean "browser language" and
 * "no branding".
 */
export const LOCALE_AND_BRANDING_MIGRATION = `
  ALTER TABLE link_sessions ADD COLUMN locale TEXT;
  ALTER TABLE accounts ADD COLUMN branding TEXT;
  `;
