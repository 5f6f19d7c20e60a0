// Who a process is, beyond its pid, for the lock file (io/lock.ts): a pid means something only in
// the pid namespace of the machine boot that gave it out, and only until it is reused. On Linux
// the boot id, the pid namespace and the process start time pin it down; elsewhere (no /proc)
// they are absent and the host name with the pid is all there is.
import { readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';

/** Where a pid is meaningful: the host, and on Linux the boot and the pid namespace. */
export interface PidScope {
  host: string;
  /** /proc/sys/kernel/random/boot_id: changes at every boot. */
  boot?: string;
  /** The inode of /proc/self/ns/pid, e.g. `pid:[4026531836]`: differs per container. */
  pidns?: string;
}

function readOrUndefined(read: () => string): string | undefined {
  try {
    const value = read().trim();
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

let ownScope: PidScope | undefined;

/** This process's scope (read once: none of it changes while the process runs). */
export function currentScope(): PidScope {
  if (!ownScope) {
    const boot = readOrUndefined(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
    const pidns = readOrUndefined(() => readlinkSync('/proc/self/ns/pid'));
    ownScope = {
      host: os.hostname(),
      ...(boot !== undefined ? { boot } : {}),
      ...(pidns !== undefined ? { pidns } : {}),
    };
  }
  return ownScope;
}

/**
 * When process `pid` of this namespace started, in clock ticks since boot (field 22 of
 * /proc/<pid>/stat), as a string; undefined when /proc does not tell (no such process, or no /proc).
 */
export function processStartTime(pid: number): string | undefined {
  const stat = readOrUndefined(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/** Whether `scope` is this process's: a pid written there names a process this one can look up. */
export function sameScope(scope: PidScope): boolean {
  const own = currentScope();
  return scope.host === own.host && scope.boot === own.boot && scope.pidns === own.pidns;
}
