/**
 * The one way tests end a child process: send the signal and wait for its exit (at once if it already ended).
 */
import type { ChildProcess } from 'node:child_process';

export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
