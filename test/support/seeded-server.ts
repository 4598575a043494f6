// A server as `npm start` leaves it on its first start (the demo tenant and its management app,
// nothing else), for the clients that walk the API from the outside (newman, Prism): on the
// run's engine (a fresh PostgreSQL database when the suite runs on one), with DEFAULT_TENANT=demo
// so that its own address is the demo tenant (Prism's proxy forwards to an address, not a tenant
// host), a loopback webhook receiver allow-listed, and short polling intervals.
import { inject } from 'vitest';
import { WebhookReceiver } from '../modules/events/webhook-receiver-fixtures.ts';
import {
  migratedDataDir,
  removeTempDirs,
  startServer,
  stopChildren,
  tempDir,
} from './processes.ts';
import { openTestDatabase } from './test-database.ts';

export interface SeededServer {
  port: number;
  /** The collection's variables for this server: baseUrl, clientId, clientSecret, webhookUrl. */
  variables: Record<string, string>;
  stop(): Promise<void>;
}

/** port: where it listens (chosen beforehand when a proxy starts beside it), else any free port. */
export async function seededServer(port?: number): Promise<SeededServer> {
  const receiver = new WebhookReceiver();
  const receiverPort = await receiver.start();
  const database =
    inject('testDatabase').engine === 'pglite' ? undefined : await openTestDatabase();
  // On PostgreSQL the server migrates its new database; DATA_DIR then holds files only.
  const dataDir = database ? await tempDir('omni-seeded-') : await migratedDataDir();
  const started = await startServer(dataDir, {
    ...(port ? { PORT: String(port) } : {}),
    DEFAULT_TENANT: 'demo',
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiverPort}`,
    WEBHOOK_POLLING_INTERVAL_MS: '50',
    JOB_POLLING_INTERVAL_SECONDS: '1',
    PROVISIONING_DELAY_SECONDS: '0',
    ...(database ? { DATABASE_URL: database.url! } : {}),
  });
  const { demo } = started;
  return {
    port: started.port,
    variables: {
      baseUrl: `http://127.0.0.1:${started.port}`,
      clientId: demo.appId,
      clientSecret: demo.secret,
      webhookUrl: `http://127.0.0.1:${receiverPort}/hook`,
    },
    async stop() {
      await stopChildren();
      await receiver.stop();
      await database?.handle.close();
      await removeTempDirs();
    },
  };
}
