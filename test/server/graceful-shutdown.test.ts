import { spawn } from 'node:child_process';
import http from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  childEnv,
  migratedDataDir,
  removeTempDirs,
  startServer,
  stopChildren,
  tempDir,
  type StartedServer,
} from '../support/processes.ts';

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A token request whose headers reach the server (which acknowledges them with
 * `100 Continue`) while its body is held back until send() is called: a request that is
 * provably in flight on the server for as long as the test wants.
 */
async function heldTokenRequest(started: StartedServer) {
  const body = 'grant_type=client_credentials';
  const agent = new http.Agent({ keepAlive: true });
  const request = http.request({
    host: '127.0.0.1',
    port: started.port,
    method: 'POST',
    path: '/oauth/token',
    agent,
    headers: {
      host: `demo.localhost:${started.port}`,
      expect: '100-continue',
      authorization: `Basic ${Buffer.from(`${started.demo.appId}:${started.demo.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
      );
      response.once('error', reject);
    });
    request.once('error', reject);
  });
  // Keep an unhandled rejection away when a test expects this request to fail.
  answer.catch(() => {});
  const acknowledged = new Promise<void>((resolve, reject) => {
    request.once('continue', () => resolve());
    request.once('error', reject);
  });
  request.flushHeaders();
  await acknowledged;
  return {
    answer,
    send: () => request.end(body),
    abandon: () => {
      request.destroy();
      agent.destroy();
    },
  };
}

describe('graceful shutdown on SIGTERM', () => {
  it('finishes the request in flight with 200, then exits 0', async () => {
    const started = await startServer(await migratedDataDir());
    const { server } = started;
    const held = await heldTokenRequest(started);
    try {
      server.child.kill('SIGTERM');
      await server.waitForLog(/^shutting down/);
      expect(server.running).toBe(true);
      held.send();

      const answer = await held.answer;
      expect(answer.status).toBe(200);
      // A keep-alive client learns that its connection ends with the shutdown.
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toMatchObject({ token_type: 'Bearer' });
      expect(await server.waitForExit()).toEqual({ code: 0, signal: null });
    } finally {
      held.abandon();
    }
  }, 120_000);

  it('exits at once with a non-zero code on a second signal during shutdown', async () => {
    const started = await startServer(await migratedDataDir());
    const { server } = started;
    const held = await heldTokenRequest(started);
    try {
      server.child.kill('SIGTERM');
      await server.waitForLog(/^shutting down/);
      // The held request keeps the shutdown from finishing; only the second signal ends it.
      expect(server.running).toBe(true);
      server.child.kill('SIGTERM');

      const exit = await server.waitForExit();
      expect(exit.signal).toBeNull();
      expect(exit.code).not.toBe(0);
      await expect(held.answer).rejects.toThrow();
    } finally {
      held.abandon();
    }
  }, 120_000);
});

describe('npm start on an empty DATA_DIR', () => {
  it('creates the demo tenant and prints a curl line that lists its apps', async () => {
    const dataDir = await tempDir('omni-empty-');
    const started = await startServer(dataDir);
    const { demo, port } = started;
    expect(demo.appId).toMatch(/^[0-9a-f-]{36}$/);
    expect(demo.secret.length).toBeGreaterThanOrEqual(43);
    expect(demo.curlLine).toContain(`http://demo.localhost:${port}/oauth/token`);
    expect(started.server.lines.join('\n')).toContain(
      `Created tenant "demo" at http://demo.localhost:${port}`,
    );

    const curl = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const child = spawn('bash', ['-c', demo.curlLine], { env: childEnv({}) });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`curl did not end: ${stdout} ${stderr}`));
        }, 30_000);
        child.once('error', reject);
        child.once('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
      },
    );
    expect(curl.code, curl.stderr).toBe(0);
    const list = JSON.parse(curl.stdout) as {
      Results: { ApplicationId: string; IsPredefined: boolean; ApplicationTypeId: number }[];
      TotalCount: number;
    };
    expect(list.TotalCount).toBe(1);
    expect(list.Results).toEqual([
      expect.objectContaining({
        ApplicationId: demo.appId,
        IsPredefined: true,
        ApplicationTypeId: 3,
        ApplicationSecret: null,
      }),
    ]);
  }, 120_000);
});
