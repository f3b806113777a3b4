/**
 * @module
 * Moderation of a text before posting, with a local word-list matcher (the `obscenity` library's English data set
 * and its recommended transformers: leetspeak, confusable characters, repeated letters, spacing tricks). Nothing
 * leaves the service. It finds profanity and slurs; it is not a classifier of meaning (threats, spam) and does not
 * look inside images: an image URL is checked as text (its address), never fetched.
 */
import { englishDataset, englishRecommendedTransformers, RegExpMatcher, TextCensor } from 'obscenity';

export interface ModerationMatch {
  /** The matched text as written. */
  term: string;
  /** UTF-16 offsets into the moderated text, end exclusive. */
  start: number;
  end: number;
}

export interface ModerationResult {
  flagged: boolean;
  matches: ModerationMatch[];
  /** The text with each match replaced by asterisks. */
  censored: string;
}

/** What the route needs of a matcher: the library's own interface, so tests can pass a failing one. */
export interface Matcher {
  getAllMatches(input: string, sorted?: boolean): { startIndex: number; endIndex: number; termId: number; matchLength: number }[];
}

export const defaultMatcher: Matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
const censor = new TextCensor();

export function moderateText(text: string, matcher: Matcher = defaultMatcher): ModerationResult {
  const found = matcher.getAllMatches(text, true);
  return {
    flagged: found.length > 0,
    // The library's end index is inclusive.
    matches: found.map((match) => ({ term: text.slice(match.startIndex, match.endIndex + 1), start: match.startIndex, end: match.endIndex + 1 })),
    censored: censor.applyTo(text, found as Parameters<TextCensor['applyTo']>[1]),
  };
}
