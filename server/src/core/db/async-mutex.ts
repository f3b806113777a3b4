/**
 * @module
 * Runs async work one piece at a time, in call order: each piece starts when the one before it has settled.
 */
export class AsyncMutex {
  #tail: Promise<unknown> = Promise.resolve();

  runExclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    // The next piece waits for this one however it ends; its failure belongs to its own caller only.
    this.#tail = result.catch(() => {});
    return result;
  }
}
