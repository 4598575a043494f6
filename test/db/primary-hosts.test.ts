// DATABASE_URL with several hosts (libpq's form, pg_autoctl show uri's): how it is read, and
// what the configuration accepts. The server following the primary through a failover is
// test/reliability/failover.test.ts.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { severalHostsOf } from '../../src/db/failover/primary-hosts.ts';

describe('severalHostsOf', () => {
  it('reads each host and port, and keeps the rest of the URL for the first host', () => {
    expect(
      severalHostsOf(
        'postgres://omni:secret@127.0.0.1:5451,127.0.0.1:5452/omni?target_session_attrs=read-write&sslmode=disable',
      ),
    ).toEqual({
      hosts: [
        { host: '127.0.0.1', port: 5451 },
        { host: '127.0.0.1', port: 5452 },
      ],
      oneHostUrl: 'postgres://omni:secret@127.0.0.1:5451/omni?sslmode=disable',
    });
  });

  it('takes names, bracketed IPv6 addresses and the default port', () => {
    expect(severalHostsOf('postgresql://db-a,[::1]:6543,db-c:5433/x')?.hosts).toEqual([
      { host: 'db-a', port: 5432 },
      { host: '::1', port: 6543 },
      { host: 'db-c', port: 5433 },
    ]);
  });

  it('drops target_session_attrs, whatever its place among the options', () => {
    expect(severalHostsOf('postgres://a,b/x?target_session_attrs=read-write')?.oneHostUrl).toBe(
      'postgres://a/x',
    );
    expect(
      severalHostsOf('postgres://a,b/x?sslmode=disable&target_session_attrs=read-write')
        ?.oneHostUrl,
    ).toBe('postgres://a/x?sslmode=disable');
  });

  it('answers undefined for a URL of one host', () => {
    expect(severalHostsOf('postgres://postgres@127.0.0.1:5432/test')).toBeUndefined();
  });

  it('refuses a host with a bad port', () => {
    expect(() => severalHostsOf('postgres://a:5432,b:99999/x')).toThrow(/bad port/);
    expect(() => severalHostsOf('postgres://a:5432,:5433/x')).toThrow(/host\[:port\]/);
  });
});

describe('loadConfig DATABASE_URL', () => {
  it('accepts several hosts', () => {
    const url =
      'postgres://postgres@127.0.0.1:5451,127.0.0.1:5452/omni?target_session_attrs=read-write';
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('refuses a list with a bad host, naming the variable', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://a:1,b:0/x' })).toThrow(
      /DATABASE_URL names a host badly/,
    );
  });
});
