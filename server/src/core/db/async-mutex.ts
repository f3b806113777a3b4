/**
 * @module
 * Runs async work one piece at a time, in call order: each piece starts when the one before it has settled.
 */
export class AsyncMutex {
  #tail: Promise<unknown> = Promise.resolve();
  #pieces = 0;

  /** True when no piece is running or waiting: synchronous work may then run at once without reordering any. */
  get idle(): boolean {
    return this.#pieces === 0;
  }

  runExclusive<T>(work: () => Promise<T>): Promise<T> {
    this.#pieces += 1;
    const result = this.#tail.then(work);
    const done = (): void => {
      this.#pieces -= 1;
    };
    // The next piece waits for this one however it ends; its failure belongs to its own caller only.
    this.#tail = result.then(done, done);
    return result;
  }
}
