// The keys that sign and verify tokens. One key signs at a time; after `omni keys rotate` the
// previous key keeps verifying until every token it signed has expired, then leaves the JWKS.
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';

export const TOKEN_ALGORITHM = 'ES256';

interface KeyRow {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
  retiredAt: Date | null;
}

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  verifyKey: CryptoKey;
  retiredAt: Date | null;
}

export class SigningKeys {
  readonly algorithm = TOKEN_ALGORITHM;
  private readonly db: DatabaseHandle;
  private readonly maxTokenLifetimeMs: number;
  private signer: { kid: string; key: CryptoKey } | undefined;
  private verifiers = new Map<string, LoadedKey>();

  constructor(db: DatabaseHandle, maxTokenLifetimeSeconds: number) {
    this.db = db;
    this.maxTokenLifetimeMs = maxTokenLifetimeSeconds * 1000;
  }

  /**
   * Loads the keys, creating the first one on a new database. Instances starting together on an
   * empty database race to create it: a unique index admits one signing key, the others' inserts
   * do nothing, and every instance then loads the one that won.
   */
  async load(): Promise<void> {
    let rows = await this.liveRows();
    if (!rows.some((r) => r.retiredAt === null)) {
      await this.insertNewKey(this.db, { ifNoneActive: true });
      rows = await this.liveRows();
    }
    const verifiers = new Map<string, LoadedKey>();
    for (const row of rows) {
      verifiers.set(row.kid, {
        kid: row.kid,
        publicJwk: row.publicJwk,
        verifyKey: (await importJWK(row.publicJwk, TOKEN_ALGORITHM)) as CryptoKey,
        retiredAt: row.retiredAt,
      });
    }
    const active = rows.find((r) => r.retiredAt === null)!;
    if (this.signer?.kid !== active.kid) {
      this.signer = {
        kid: active.kid,
        key: (await importJWK(active.privateJwk, TOKEN_ALGORITHM)) as CryptoKey,
      };
    }
    this.verifiers = verifiers;
  }

  /** Retires the signing key and makes a new one; returns the new kid. */
  async rotate(): Promise<string> {
    const kid = await this.db.rawTransaction(async (tx) => {
      await tx.query('update signing_keys set retired_at = now() where retired_at is null');
      return this.insertNewKey(tx);
    });
    await this.load();
    return kid;
  }

  signingKey(): { kid: string; key: CryptoKey } {
    if (!this.signer) throw new Error('Signing keys are not loaded');
    return this.signer;
  }

  verificationKey(kid: string | undefined): CryptoKey | undefined {
    return kid === undefined ? undefined : this.verifiers.get(kid)?.verifyKey;
  }

  jwks(): { keys: JWK[] } {
    return {
      keys: [...this.verifiers.values()].map((k) => ({
        ...k.publicJwk,
        kid: k.kid,
        alg: TOKEN_ALGORITHM,
        use: 'sig',
      })),
    };
  }

  private async liveRows() {
    const rows = await this.db.query<KeyRow>(
      `select kid, private_jwk as "privateJwk", public_jwk as "publicJwk", retired_at as "retiredAt"
         from signing_keys order by created_at desc`,
    );
    const oldestUseful = Date.now() - this.maxTokenLifetimeMs;
    return rows.filter((r) => r.retiredAt === null || r.retiredAt.getTime() > oldestUseful);
  }

  private async insertNewKey(
    executor: RawSql = this.db,
    options: { ifNoneActive?: boolean } = {},
  ): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(TOKEN_ALGORITHM, { extractable: true });
    const kid = randomUUID();
    await executor.query(
      `insert into signing_keys (kid, algorithm, private_jwk, public_jwk) values ($1, $2, $3, $4)
       ${options.ifNoneActive ? 'on conflict do nothing' : ''}`,
      [
        kid,
        TOKEN_ALGORITHM,
        JSON.stringify(await exportJWK(privateKey)),
        JSON.stringify(await exportJWK(publicKey)),
      ],
    );
    return kid;
  }
}
