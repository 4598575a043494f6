// Helpers of the integration endpoint tests: a gateway provisioner the test controls (hold,
// fail, fail once), bounded polling, and calls through the gateway and portal hosts.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  ProvisioningError,
  type GatewayProvisioner,
} from '../../../src/modules/integration/provisioning.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';

export const ENDPOINT = '/management/integration/endpoint';
export const KEY_PATH = `${ENDPOINT}/subscriptionkey`;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every intervalMs until it returns something other than undefined. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

type Plan =
  | { kind: 'hold'; gate: Deferred }
  | { kind: 'fail'; reason: string }
  | { kind: 'failOnce'; error: Error };

/**
 * The outside dependency of provisioning, under the test's control, by service name: succeed
 * (the default), hold until released, fail for good (ProvisioningError), or fail once
 * with an ordinary error (which pg-boss retries).
 */
export class ControlledProvisioner implements GatewayProvisioner {
  readonly calls: { serviceName: string; gatewayHost: string; portalHost: string }[] = [];
  private readonly plans = new Map<string, Plan>();
  private readonly started = new Map<string, Deferred>();

  async provision(endpoint: {
    serviceName: string;
    gatewayHost: string;
    portalHost: string;
  }): Promise<void> {
    const name = endpoint.serviceName.toLowerCase();
    this.calls.push({
      serviceName: endpoint.serviceName,
      gatewayHost: endpoint.gatewayHost,
      portalHost: endpoint.portalHost,
    });
    this.startedSignal(name).resolve();
    const plan = this.plans.get(name);
    if (!plan) return;
    if (plan.kind === 'hold') return plan.gate.promise;
    if (plan.kind === 'fail') throw new ProvisioningError(plan.reason);
    this.plans.delete(name);
    throw plan.error;
  }

  private startedSignal(name: string): Deferred {
    let signal = this.started.get(name);
    if (!signal) {
      signal = deferred();
      this.started.set(name, signal);
    }
    return signal;
  }

  /** Provisioning of this service waits until the returned function is called. */
  hold(serviceName: string): () => void {
    const gate = deferred();
    this.plans.set(serviceName.toLowerCase(), { kind: 'hold', gate });
    return () => {
      this.plans.delete(serviceName.toLowerCase());
      gate.resolve();
    };
  }

  fail(serviceName: string, reason: string): void {
    this.plans.set(serviceName.toLowerCase(), { kind: 'fail', reason });
  }

  failOnce(serviceName: string, error: Error): void {
    this.plans.set(serviceName.toLowerCase(), { kind: 'failOnce', error });
  }

  succeed(serviceName: string): void {
    this.plans.delete(serviceName.toLowerCase());
  }

  /** Resolves once the provisioning job of this service has reached the provisioner. */
  async reached(serviceName: string, timeoutMs = 20_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`provisioning of ${serviceName} did not start`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.startedSignal(serviceName.toLowerCase()).promise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  callsFor(serviceName: string): number {
    return this.calls.filter((c) => c.serviceName.toLowerCase() === serviceName.toLowerCase())
      .length;
  }
}

export interface EndpointJson {
  ServiceName: string;
  ManagementPortalUrl: string;
  Status: number;
  ServiceTier: number;
  AdminMail: string;
  CreationDate: string;
}

export function createEndpoint(
  api: TestApi,
  tenant: TestTenant,
  body: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  return api.call({ method: 'POST', url: ENDPOINT, tenant, body });
}

/** Polls GET until the endpoint's Status is one of `statuses`; answers the endpoint. */
export function waitForStatus(
  api: TestApi,
  tenant: TestTenant,
  statuses: number[],
  timeoutMs = 20_000,
): Promise<EndpointJson> {
  return waitFor(
    `Status ${statuses.join(' or ')} of ${tenant.name}'s endpoint`,
    async () => {
      const response = await api.call({ url: ENDPOINT, tenant });
      expect(response.statusCode).toBe(200);
      const endpoint = response.json<EndpointJson>();
      return statuses.includes(endpoint.Status) ? endpoint : undefined;
    },
    timeoutMs,
  );
}

export async function subscriptionKeyOf(api: TestApi, tenant: TestTenant): Promise<string> {
  const response = await api.call({ url: KEY_PATH, tenant });
  expect(response.statusCode).toBe(200);
  return response.json<{ SubscriptionKey: string }>().SubscriptionKey;
}

/** A request to the gateway host of a service, with the key and bearer token given. */
export function viaGateway(
  api: TestApi,
  serviceName: string,
  options: { key?: string; token?: string; url?: string; method?: 'GET' | 'POST' | 'DELETE' },
): Promise<LightMyRequestResponse> {
  return api.app.inject({
    method: options.method ?? 'GET',
    url: options.url ?? ENDPOINT,
    headers: {
      host: `${serviceName.toLowerCase()}.${api.config.integrationHost}`,
      accept: 'application/vnd.xomni.api-v4-0',
      ...(options.key !== undefined ? { 'x-subscription-key': options.key } : {}),
      ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
    },
  });
}

export function viaPortal(
  api: TestApi,
  serviceName: string,
  url = '/',
): Promise<LightMyRequestResponse> {
  return api.app.inject({
    method: 'GET',
    url,
    headers: { host: `${serviceName.toLowerCase()}.portal.${api.config.integrationHost}` },
  });
}

export async function tenantIdOf(api: TestApi, tenant: TestTenant): Promise<number> {
  const found = await api.services.tenants.findByName(tenant.name);
  if (!found) throw new Error(`no tenant ${tenant.name}`);
  return found.id;
}

/** Waits until the wall clock is early in a one-second window (rate limits count per second). */
export async function startOfSecond(): Promise<void> {
  const ms = Date.now() % 1000;
  if (ms > 100) await sleep(1000 - ms + 5);
}
