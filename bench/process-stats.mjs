// What the benches read of a process they started, from Linux's /proc.
import { readFileSync } from 'node:fs';

/** User + system CPU time of a process so far, in ms (/proc/<pid>/stat counts clock ticks of 10 ms). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A process's resident memory now, in MB. */
export function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}
