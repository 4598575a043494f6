// Which URLs a subscription may have: https, or http to an allow-listed host; never credentials
// in the URL; and, for an IP literal, a public address unless allow-listed (names are checked
// when each delivery resolves them, address-guard.ts).
import { isIP } from 'node:net';
import { bareHost, isPublicAddress } from './address-guard.ts';
import { invalidWebhookUrl } from './events-errors.ts';

export function checkWebhookUrl(text: string, allowedHosts: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidWebhookUrl(`"${text}" is not an absolute URL.`);
  }
  const host = bareHost(url);
  const allowed = allowedHosts.includes(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed)) {
    throw invalidWebhookUrl(
      url.protocol === 'http:'
        ? `http is allowed only to the hosts in WEBHOOK_ALLOWED_HOSTS; ${host} is not one: use https.`
        : 'The URL must be https (or http to an allow-listed host).',
    );
  }
  if (url.username || url.password)
    throw invalidWebhookUrl('The URL must not carry credentials; sign-in is by the signature.');
  if (url.hash) throw invalidWebhookUrl('The URL must not have a fragment.');
  if (isIP(host) && !allowed && !isPublicAddress(host))
    throw invalidWebhookUrl(
      `${host} is not a public address (loopback, private, link-local and metadata addresses are refused unless allow-listed).`,
    );
  return url.toString();
}
