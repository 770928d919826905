/**
 * Whether process `pid` of this machine is still running: what tells a lock or a work folder left by a process that
 * died (kill -9, a power cut) from one still in use. EPERM means alive, another user's.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
