// A real S3-protocol server (s3rver, see s3rver-process.ts) on loopback for one test file.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';

const SCRIPT = path.resolve(import.meta.dirname, 's3rver-process.ts');

export interface S3rver {
  /** An S3_URL for the server's bucket. */
  url: string;
  stop(): Promise<void>;
}

/** Starts s3rver keeping its files under `directory`, with one bucket. */
export async function startS3rver(directory: string, bucket = 'omni-assets'): Promise<S3rver> {
  const child = spawn(process.execPath, [SCRIPT, directory, bucket], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { port } = JSON.parse(line) as { port: number };
  return {
    url: `http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}?region=us-east-1`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
