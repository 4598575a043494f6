// Which URLs a subscription may have: https, or http to an allow-listed host:port; never
// credentials in the URL, never port 0; a host of the allow-list on its listed ports only; and,
// for an IP literal, a public address unless its host:port is allow-listed (names are checked
// when each delivery resolves them, address-guard.ts). The same rules are checked again at each
// delivery (WEBHOOK_ALLOWED_HOSTS may have changed since the subscription was saved).
import { isIP } from 'node:net';
import {
  allowedPortsOf,
  allowListKey,
  bareHost,
  isAllowListed,
  isPublicAddress,
  portOf,
} from './address-guard.ts';
import { invalidWebhookUrl } from './events-errors.ts';

/** Why a URL cannot be a subscription's, or undefined when it can. */
export function webhookUrlProblem(
  text: string,
  allowedHosts: readonly string[],
): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text}" is not an absolute URL.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'The URL must be https (or http to an allow-listed host and port).';
  if (url.port === '0') return 'The URL must not name port 0: no receiver listens there.';
  const key = allowListKey(url);
  const allowed = isAllowListed(url, allowedHosts);
  const listedPorts = allowedPortsOf(url, allowedHosts);
  if (!allowed && listedPorts.length > 0)
    return `${url.hostname} is in WEBHOOK_ALLOWED_HOSTS on port ${listedPorts.join(', ')} only; port ${portOf(url)} is not allowed.`;
  if (url.protocol === 'http:' && !allowed)
    return `http is allowed only to the host:port entries of WEBHOOK_ALLOWED_HOSTS; ${key} is not one: use https.`;
  if (url.username || url.password)
    return 'The URL must not carry credentials; sign-in is by the signature.';
  if (url.hash) return 'The URL must not have a fragment.';
  const host = bareHost(url);
  if (isIP(host) && !allowed && !isPublicAddress(host))
    return `${host} is not a public address (loopback, private, link-local and metadata addresses, also written inside an IPv6 address, are refused unless the host and port are in WEBHOOK_ALLOWED_HOSTS).`;
  return undefined;
}

/** The URL as stored, or 400 InvalidWebhookUrl saying why it cannot be a subscription's. */
export function checkWebhookUrl(text: string, allowedHosts: readonly string[]): string {
  const problem = webhookUrlProblem(text, allowedHosts);
  if (problem) throw invalidWebhookUrl(problem);
  return new URL(text).toString();
}
