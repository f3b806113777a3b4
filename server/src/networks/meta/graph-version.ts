/** @module The API versions the Meta adapters speak (their paths follow `{base}/{version}`). */
export const GRAPH_VERSION = 'v21.0';
/** The threads API has its own versions. */
export const THREADS_VERSION = 'v1.0';
