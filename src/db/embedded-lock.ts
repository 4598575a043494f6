// The embedded database is one process's files: a second process opening them would corrupt
// them. The lock makes the second process stop before it touches anything.
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

/**
 * Locks DATA_DIR for this process. `onLost` is called if the lock is lost afterwards (its file
 * removed or taken over, the disk gone): the files are then no longer this process's alone.
 */
export async function acquireDataDirLock(
  dataDir: string,
  onLost: (error: Error) => void = () => {},
): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: `${dataDir}/.lock`,
      stale: 10_000,
      update: 2_000,
      retries: 0,
      realpath: false,
      onCompromised: onLost,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir);
    throw error;
  }
}
