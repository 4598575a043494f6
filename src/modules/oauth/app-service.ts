// OAuth apps of a tenant (contract §5.1): the rules live here, the routes only translate HTTP.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Database, Executor, RawSql } from '../../db/database.ts';
import type { Page, Paging } from '../../http/paging.ts';
import { applicationType, MANAGEMENT_APP_TYPE } from './app-types.ts';
import type { App, AppBody } from './app-schemas.ts';
import { oauthErrors } from './oauth-errors.ts';
import { generateSecret, hashSecret } from './secrets.ts';
import { oauthApps } from './tables.ts';
import type { TokenService } from './token-service.ts';

type AppRow = typeof oauthApps.$inferSelect;

// The row version behind the ETag: always moves forward, even for two writes in one millisecond.
const NEXT_VERSION = sql`greatest(now(), ${oauthApps.updatedAt} + interval '1 millisecond')`;

export interface AppWithVersion {
  app: App;
  /** The row version behind the ETag. */
  version: Date;
}

/** An app as JSON text in its wire shape (kept by the database), with its row version. */
export interface AppJson {
  json: string;
  version: Date;
}

// The hot read (integrators fetch their app with every token they hold): the stored document
// (0009_app_documents.sql) by primary key, prepared, passed through without parsing it.
const APP_JSON_BY_ID = `select document as json, updated_at as version
  from oauth_apps where tenant_id = $1 and id = $2`;

function toApp(row: AppRow, secret: string | null = null): App {
  return {
    ApplicationId: row.id,
    ApplicationSecret: secret,
    Name: row.name,
    Description: row.description,
    IsPredefined: row.isPredefined,
    ApplicationTypeId: row.applicationTypeId,
    ApplicationTypeDescription: applicationType(row.applicationTypeId).description,
    CreatedDate: row.createdAt.toISOString(),
  };
}

export class AppService {
  private readonly db: Database;
  private readonly raw: RawSql;
  private readonly tokens: TokenService;

  constructor(db: Database, raw: RawSql, tokens: TokenService) {
    this.db = db;
    this.raw = raw;
    this.tokens = tokens;
  }

  async get(tenantId: number, id: string): Promise<AppJson> {
    const [row] = await this.raw.prepared<AppJson>('oauth_app_json_by_id', APP_JSON_BY_ID, [
      tenantId,
      id,
    ]);
    if (!row) throw oauthErrors.appNotFound(id);
    return row;
  }

  async list(tenantId: number, paging: Paging): Promise<Page<App>> {
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(oauthApps)
        .where(eq(oauthApps.tenantId, tenantId))
        .orderBy(asc(oauthApps.createdAt), asc(oauthApps.id))
        .offset(paging.skip)
        .limit(paging.take),
      this.db.select({ n: count() }).from(oauthApps).where(eq(oauthApps.tenantId, tenantId)),
    ]);
    return { Results: rows.map((r) => toApp(r)), TotalCount: total?.n ?? 0 };
  }

  async create(
    tenantId: number,
    body: AppBody,
    executor: Executor = this.db,
    predefined = false,
  ): Promise<App> {
    const secret = generateSecret();
    const [row] = await executor
      .insert(oauthApps)
      .values({
        tenantId,
        id: randomUUID(),
        name: body.Name,
        description: body.Description ?? null,
        applicationTypeId: body.ApplicationTypeId,
        isPredefined: predefined,
        secretHash: hashSecret(secret),
      })
      .returning();
    return toApp(row!, secret);
  }

  /** The tenant's predefined management app, made with the tenant in the caller's transaction. */
  createBootstrap(tx: Executor, tenantId: number): Promise<App> {
    return this.create(
      tenantId,
      {
        Name: 'Bootstrap management app',
        Description:
          'Created with the tenant. It cannot be deleted; rotate its secret if it leaks.',
        ApplicationTypeId: MANAGEMENT_APP_TYPE,
      },
      tx,
      true,
    );
  }

  /** Updates name, description and type; `checkVersion` runs against the current row (If-Match). */
  async update(
    tenantId: number,
    id: string,
    body: AppBody,
    checkVersion: (version: Date) => void,
  ): Promise<AppWithVersion> {
    let typeChanged = false;
    const result = await this.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(oauthApps)
        .where(and(eq(oauthApps.tenantId, tenantId), eq(oauthApps.id, id)))
        .for('update');
      if (!current) throw oauthErrors.appNotFound(id);
      checkVersion(current.updatedAt);
      if (current.isPredefined && body.ApplicationTypeId !== current.applicationTypeId) {
        throw oauthErrors.predefinedAppType();
      }
      // A type change changes the scopes the app's tokens may carry: end its tokens. Bumping the
      // version their `ver` claim must match ends them for good, not only in the caches.
      typeChanged = body.ApplicationTypeId !== current.applicationTypeId;
      const [row] = await tx
        .update(oauthApps)
        .set({
          name: body.Name,
          description: body.Description ?? null,
          applicationTypeId: body.ApplicationTypeId,
          updatedAt: NEXT_VERSION,
          ...(typeChanged ? { secretVersion: sql`${oauthApps.secretVersion} + 1` } : {}),
        })
        .where(and(eq(oauthApps.tenantId, tenantId), eq(oauthApps.id, id)))
        .returning();
      if (typeChanged) await this.tokens.invalidateApp(tx, tenantId, id);
      return { app: toApp(row!), version: row!.updatedAt };
    });
    if (typeChanged) this.tokens.forget(tenantId, id);
    return result;
  }

  async delete(tenantId: number, id: string, checkVersion: (version: Date) => void): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(oauthApps)
        .where(and(eq(oauthApps.tenantId, tenantId), eq(oauthApps.id, id)))
        .for('update');
      if (!current) throw oauthErrors.appNotFound(id);
      checkVersion(current.updatedAt);
      if (current.isPredefined) throw oauthErrors.predefinedApp();
      await tx.delete(oauthApps).where(and(eq(oauthApps.tenantId, tenantId), eq(oauthApps.id, id)));
      await this.tokens.invalidateApp(tx, tenantId, id);
    });
    this.tokens.forget(tenantId, id);
  }

  async rotateSecret(tenantId: number, id: string): Promise<App> {
    const secret = generateSecret();
    const rotated = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(oauthApps)
        .set({
          secretHash: hashSecret(secret),
          secretVersion: sql`${oauthApps.secretVersion} + 1`,
          updatedAt: NEXT_VERSION,
        })
        .where(and(eq(oauthApps.tenantId, tenantId), eq(oauthApps.id, id)))
        .returning();
      if (!row) throw oauthErrors.appNotFound(id);
      await this.tokens.invalidateApp(tx, tenantId, id);
      return toApp(row, secret);
    });
    this.tokens.forget(tenantId, id);
    return rotated;
  }
}
