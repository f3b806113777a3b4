/**
 * @module
 * Migration (after the publishing tables): `posts.media_copies`, the stored copies of a later post's images by
 * origin URL (media protection, spec 4.9 rule 7), and `social_accounts.account_type`, the kind of account the
 * network reported at linking (instagram `PERSONAL` accounts cannot publish, spec 4.9 rule 10), NULL = unknown;
 * `post_platforms.first_comment`, the first comment's state on that platform (pending, its id, or its error).
 */
export function mediaCopiesAndAccountTypeMigration(): string {
  return `
  ALTER TABLE posts ADD COLUMN media_copies TEXT;
  ALTER TABLE social_accounts ADD COLUMN account_type TEXT;
  ALTER TABLE post_platforms ADD COLUMN first_comment TEXT;
  `;
}
