// The integration endpoint's calls (one endpoint a tenant, under one query key).
import { ApiFailure, call, client } from '../../api.ts';
import type { Endpoint } from '../../types.ts';

export const endpointKey = ['endpoint'] as const;
export const STATUS = ['', 'Creation in progress', 'Live', 'Failed'];
export const TIER_NAMES = ['Developer', 'Standard', 'Premium'];

/** The endpoint, or null when the tenant has none. */
export async function loadEndpoint(): Promise<Endpoint | null> {
  try {
    return await call(client.GET('/management/integration/endpoint'));
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) return null;
    throw error;
  }
}

export const currentKey = async () =>
  (await call(client.GET('/management/integration/endpoint/subscriptionkey'))).SubscriptionKey;
export const newKey = async () =>
  (await call(client.POST('/management/integration/endpoint/subscriptionkey'))).SubscriptionKey;
export const deleteEndpoint = () => call(client.DELETE('/management/integration/endpoint'));
