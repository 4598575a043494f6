// The embedded database is one process's files: a second process opening them would corrupt
// them. The lock makes the second process stop before it touches anything.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import lockfile from 'proper-lockfile';

export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `The embedded database in DATA_DIR=${dataDir} is in use by another process (a running server or CLI). ` +
        'Stop that process first, or set DATA_DIR or DATABASE_URL to use another database.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Who holds the lock: read after a refusal, to tell a crashed holder from a running one. */
interface LockOwner {
  pid: number;
  host: string;
}

const ownerFile = (dataDir: string) => `${dataDir}/.lock-owner`;

/**
 * True when the lock's holder ran on this machine and is no longer running (killed, crashed):
 * its lock would otherwise keep a restarted server out until it goes stale.
 */
async function holderIsGone(dataDir: string): Promise<boolean> {
  let owner: LockOwner;
  try {
    owner = JSON.parse(await readFile(ownerFile(dataDir), 'utf8')) as LockOwner;
  } catch {
    return false;
  }
  if (owner.host !== hostname() || !Number.isInteger(owner.pid) || owner.pid === process.pid)
    return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Locks DATA_DIR for this process. `onLost` is called if the lock is lost afterwards (its file
 * removed or taken over, the disk gone): the files are then no longer this process's alone.
 */
export async function acquireDataDirLock(
  dataDir: string,
  onLost: (error: Error) => void = () => {},
): Promise<() => Promise<void>> {
  const lock = () =>
    lockfile.lock(dataDir, {
      lockfilePath: `${dataDir}/.lock`,
      stale: 10_000,
      update: 2_000,
      retries: 0,
      realpath: false,
      onCompromised: onLost,
    });
  let release: () => Promise<void>;
  try {
    release = await lock();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    if (!(await holderIsGone(dataDir))) throw new DataDirLockedError(dataDir);
    // The holder was killed: its lock is left over, not held. PostgreSQL's own recovery makes
    // the files consistent when the database opens.
    await rm(`${dataDir}/.lock`, { recursive: true, force: true });
    try {
      release = await lock();
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'ELOCKED')
        throw new DataDirLockedError(dataDir);
      throw again;
    }
  }
  await writeFile(ownerFile(dataDir), JSON.stringify({ pid: process.pid, host: hostname() }));
  return release;
}
