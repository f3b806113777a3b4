/** @module Units the networks' limits are written in. */
export const MB = 1024 * 1024;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
