/**
 * @module
 * The service's log sink: lines written within one event-loop turn leave together in one write. A write to a pipe
 * or file is a synchronous system call in Node, so one `console.log` per request cost a syscall (and console's
 * formatting) on every answer; batched, a busy turn pays one. Lines wait at most until the end of the current turn,
 * and `flush()` (also run on process exit) writes what is pending at once, so a normal shutdown loses none; a
 * kill -9 can lose the lines of the turn it interrupts, never an answered request's data.
 */
export interface LineWriter {
  (line: string): void;
  flush(): void;
}

export function lineWriter(stream: { write(text: string): unknown } = process.stdout): LineWriter {
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const text = pending.join('\n') + '\n';
    pending = [];
    stream.write(text);
  };
  const write = ((line: string) => {
    pending.push(line);
    if (pending.length === 1) setImmediate(flush);
  }) as LineWriter;
  write.flush = flush;
  process.once('exit', flush);
  return write;
}
