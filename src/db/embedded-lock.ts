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

export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: `${dataDir}/.lock`,
      stale: 10_000,
      update: 2_000,
      retries: 0,
      realpath: false,
      // Losing the lock (say the disk vanished) is not worth crashing a serving process over.
      onCompromised: () => {},
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir);
    throw error;
  }
}
