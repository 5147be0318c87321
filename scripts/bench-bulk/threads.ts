/**
 * This process's CPU split by thread, read from Linux's /proc (decision 0217). `process.cpuUsage()` counts every
 * thread of the process; a JavaScript profile sees only the main one. The others are V8's platform workers (the
 * optimizing compiler and the garbage collector's helpers), libuv's pool and, in the bench, the module-hook thread
 * of `--import tsx`. Each thread's time is read in clock ticks of 10 ms. Elsewhere than Linux: null.
 */
import { readdirSync, readFileSync } from "node:fs";

export type ThreadCpu = { mainMs: number; otherMs: number };

/** User + system CPU milliseconds of a process's or thread's stat line (utime and stime, in clock ticks of USER_HZ 100). */
export function statCpuMs(stat: string): number {
  // The command name (in parentheses) may hold spaces: the fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export function threadCpu(): ThreadCpu | null {
  let tasks: string[];
  try {
    tasks = readdirSync("/proc/self/task");
  } catch {
    return null;
  }
  const split: ThreadCpu = { mainMs: 0, otherMs: 0 };
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, "utf8");
    } catch {
      continue; // the thread ended between the listing and the read
    }
    if (task === String(process.pid)) split.mainMs += statCpuMs(stat);
    else split.otherMs += statCpuMs(stat);
  }
  return split;
}

/**
 * The CPU the threads other than the main one spent between two readings: the difference of their totals. A thread
 * that ended in between takes its whole time out of the second total, so this is a lower bound; V8's and libuv's
 * threads live as long as the process.
 */
export function otherThreadsMsSince(before: ThreadCpu | null): number | null {
  const after = threadCpu();
  return before && after ? Math.max(0, after.otherMs - before.otherMs) : null;
}
