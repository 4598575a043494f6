// The SSRF guard's decisions as plain functions, no server and no connection: which addresses are
// public (embedded IPv4 forms included), how a URL matches WEBHOOK_ALLOWED_HOSTS (host and port),
// which URLs a subscription may have, and when a failed delivery may quote the reply's body.
import { describe, expect, it } from 'vitest';
import {
  AddressRefused,
  allowListKey,
  checkedAddress,
  isPublicAddress,
  showsReplyBody,
} from '../../../src/modules/events/address-guard.ts';
import { checkWebhookUrl } from '../../../src/modules/events/webhook-url.ts';

const ALLOWED = ['127.0.0.1:9000', '[::1]:9000', 'hooks.internal:8443'];

function refusal(url: string, allowed: readonly string[] = ALLOWED): string | undefined {
  try {
    checkWebhookUrl(url, allowed);
    return undefined;
  } catch (error) {
    expect((error as { code?: string }).code).toBe('InvalidWebhookUrl');
    return (error as Error).message;
  }
}

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['169.254.169.254', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    // IPv4-mapped (::ffff:0:0/96): judged as the IPv4 address it carries.
    ['::ffff:127.0.0.1', false],
    ['::ffff:a9fe:a9fe', false],
    ['::ffff:8.8.8.8', true],
    // IPv4-compatible (deprecated ::/96): judged as the IPv4 address it carries.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::a9fe:a9fe', false],
    ['::10.0.0.1', false],
    ['::8.8.8.8', true],
    // NAT64 well-known prefix (64:ff9b::/96): judged as the IPv4 address it carries.
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::8.8.8.8', true],
    // NAT64 local-use prefix (64:ff9b:1::/48), 6to4 (2002::/16), Teredo: refused whatever they carry.
    ['64:ff9b:1::808:808', false],
    ['2002:808:808::1', false],
    ['2002:a9fe:a9fe::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['not an address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('allowListKey', () => {
  it('is the URL’s host and port, the scheme’s default port when none is written', () => {
    expect(allowListKey(new URL('http://127.0.0.1:9000/hook'))).toBe('127.0.0.1:9000');
    expect(allowListKey(new URL('http://127.0.0.1/hook'))).toBe('127.0.0.1:80');
    expect(allowListKey(new URL('https://Hooks.Internal/hook'))).toBe('hooks.internal:443');
    expect(allowListKey(new URL('http://[0:0:0:0:0:0:0:1]:9000/'))).toBe('[::1]:9000');
    // An embedded IPv4 address is not the IPv4 address: it does not match 127.0.0.1:9000.
    expect(allowListKey(new URL('http://[::127.0.0.1]:9000/'))).toBe('[::7f00:1]:9000');
  });
});

describe('checkWebhookUrl and WEBHOOK_ALLOWED_HOSTS entries of host and port', () => {
  it('takes http to an allow-listed host on its listed port', () => {
    expect(refusal('http://127.0.0.1:9000/hook')).toBeUndefined();
    expect(refusal('http://[::1]:9000/hook')).toBeUndefined();
    expect(refusal('http://hooks.internal:8443/hook')).toBeUndefined();
    expect(refusal('https://hooks.example.com/hook')).toBeUndefined();
  });

  it('refuses an allow-listed host on any other port', () => {
    for (const url of [
      'http://127.0.0.1:5432/',
      'https://127.0.0.1:6379/',
      'http://127.0.0.1/',
      'http://[::1]:5432/',
      'https://hooks.internal:5432/',
      'https://hooks.internal/',
    ])
      expect(refusal(url) ?? 'accepted', url).toMatch(/WEBHOOK_ALLOWED_HOSTS/);
  });

  it('refuses port 0', () => {
    for (const url of [
      'https://hooks.example.com:0/hook',
      'https://hooks.example.com:00/hook',
      'https://8.8.8.8:0/',
    ])
      expect(refusal(url) ?? 'accepted', url).toMatch(/port 0/i);
  });

  it('judges IPv6 forms embedding an IPv4 address by that address, never as its allow-list entry', () => {
    for (const url of [
      'https://[::127.0.0.1]:9000/hook',
      'http://[::127.0.0.1]:9000/hook',
      'https://[::ffff:127.0.0.1]:9000/hook',
      'https://[::a9fe:a9fe]/latest/meta-data',
      'https://[::169.254.169.254]/latest/meta-data',
      'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
      'https://[2002:a9fe:a9fe::1]/',
    ])
      expect(refusal(url) ?? 'accepted', url).not.toBe('accepted');
    expect(refusal('https://[::8.8.8.8]/hook')).toBeUndefined();
  });
});

describe('checkedAddress', () => {
  const answering =
    (address: string, family = 6) =>
    async () => [{ address, family }];

  it('refuses a name resolving to an IPv4-compatible loopback or metadata address', async () => {
    for (const address of ['::7f00:1', '::a9fe:a9fe'])
      await expect(
        checkedAddress(new URL('https://hooks.example.com/hook'), [], answering(address)),
      ).rejects.toThrow(/resolves to a non-public address/);
  });

  it('tells the tenant the host, never the address, and keeps the address for the log', async () => {
    const refusal = await checkedAddress(
      new URL('https://db.corp.example/hook'),
      [],
      answering('10.20.30.40', 4),
    ).then(
      () => undefined,
      (error: unknown) => error as AddressRefused,
    );
    expect(refusal).toBeInstanceOf(AddressRefused);
    expect(refusal!.message).toMatch(/^db\.corp\.example resolves to a non-public address \(/);
    expect(refusal!.message).not.toContain('10.20.30.40');
    expect(refusal).toMatchObject({ host: 'db.corp.example', address: '10.20.30.40' });
  });

  it('refuses an allow-listed name on a port not listed, and takes it on its port', async () => {
    const loopback = answering('127.0.0.1', 4);
    await expect(
      checkedAddress(new URL('https://hooks.internal:5432/'), ALLOWED, loopback),
    ).rejects.toThrow(/non-public address/);
    await expect(
      checkedAddress(new URL('https://hooks.internal:8443/'), ALLOWED, loopback),
    ).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });
});

describe('showsReplyBody', () => {
  it('quotes the reply of a receiver not on the allow-list, reached at a public address', () => {
    expect(
      showsReplyBody(new URL('https://hooks.example.com/hook'), ALLOWED, '93.184.216.34'),
    ).toBe(true);
    expect(showsReplyBody(new URL('https://hooks.example.com/hook'), [], '2606:4700::1111')).toBe(
      true,
    );
  });

  it('never quotes an allow-listed receiver’s reply', () => {
    expect(showsReplyBody(new URL('http://127.0.0.1:9000/hook'), ALLOWED, '127.0.0.1')).toBe(false);
    expect(showsReplyBody(new URL('http://hooks.internal:8443/hook'), ALLOWED, '10.0.0.5')).toBe(
      false,
    );
    // Even when the allow-listed name resolves to a public address.
    expect(
      showsReplyBody(new URL('http://hooks.internal:8443/hook'), ALLOWED, '93.184.216.34'),
    ).toBe(false);
  });

  it('never quotes the reply of a host on the allow-list, whatever the port, or of a non-public address', () => {
    expect(showsReplyBody(new URL('https://hooks.internal/hook'), ALLOWED, '93.184.216.34')).toBe(
      false,
    );
    expect(showsReplyBody(new URL('https://hooks.example.com/hook'), [], '10.0.0.5')).toBe(false);
    expect(showsReplyBody(new URL('https://hooks.example.com/hook'), [], '::7f00:1')).toBe(false);
  });
});
