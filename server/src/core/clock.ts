/** Milliseconds since the epoch. Injected so tests can move time forward without sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
