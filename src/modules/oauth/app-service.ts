// OAuth apps of a tenant (contract §5.1): the rules live here, the routes only translate HTTP.
import { randomUUID } from 'node:crypto';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { NEXT_UPDATED_AT } from '../../db/queries/row-version.ts';
import type { Page, Paging } from '../../domain/paging.ts';
import { applicationType, MANAGEMENT_APP_TYPE } from './app-types.ts';
import type { App, AppBody } from './app-schemas.ts';
import { oauthErrors } from './oauth-errors.ts';
import { generateSecret, hashSecret } from './secrets.ts';
import type { TokenService } from './token-service.ts';

/** An app's row as the statements below select it (`APP_COLUMNS`). */
interface AppRow {
  id: string;
  name: string;
  description: string | null;
  applicationTypeId: number;
  isPredefined: boolean;
  createdAt: Date;
  updatedAt: Date;
}

// The table also has `document`, the app's wire-shape JSON that a trigger keeps
// (migrations/0014_app_documents.sql); only the app fetch reads it.
const APP_COLUMNS = `id, name, description, application_type_id as "applicationTypeId",
  is_predefined as "isPredefined", created_at as "createdAt", updated_at as "updatedAt"`;

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
// (migrations/0014_app_documents.sql) by primary key, prepared, passed through without parsing it.
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
  private readonly db: DatabaseHandle;
  private readonly tokens: TokenService;

  constructor(db: DatabaseHandle, tokens: TokenService) {
    this.db = db;
    this.tokens = tokens;
  }

  async get(tenantId: number, id: string): Promise<AppJson> {
    const [row] = await this.db.prepared<AppJson>('oauth_app_json_by_id', APP_JSON_BY_ID, [
      tenantId,
      id,
    ]);
    if (!row) throw oauthErrors.appNotFound(id);
    return row;
  }

  async list(tenantId: number, paging: Paging): Promise<Page<App>> {
    const [rows, [total]] = await Promise.all([
      this.db.query<AppRow>(
        `select ${APP_COLUMNS} from oauth_apps where tenant_id = $1
          order by created_seq offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(
        'select count(*)::int as n from oauth_apps where tenant_id = $1',
        [tenantId],
      ),
    ]);
    return { Results: rows.map((r) => toApp(r)), TotalCount: total?.n ?? 0 };
  }

  async create(
    tenantId: number,
    body: AppBody,
    executor: RawSql = this.db,
    predefined = false,
  ): Promise<App> {
    const secret = generateSecret();
    const [row] = await executor.query<AppRow>(
      `insert into oauth_apps
         (tenant_id, id, name, description, application_type_id, is_predefined, secret_hash)
       values ($1, $2, $3, $4, $5, $6, $7) returning ${APP_COLUMNS}`,
      [
        tenantId,
        randomUUID(),
        body.Name,
        body.Description ?? null,
        body.ApplicationTypeId,
        predefined,
        hashSecret(secret),
      ],
    );
    return toApp(row!, secret);
  }

  /** The tenant's predefined management app, made with the tenant in the caller's transaction. */
  createBootstrap(tx: RawSql, tenantId: number): Promise<App> {
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
    const result = await this.db.rawTransaction(async (tx) => {
      const [current] = await tx.query<AppRow>(
        `select ${APP_COLUMNS} from oauth_apps where tenant_id = $1 and id = $2 for update`,
        [tenantId, id],
      );
      if (!current) throw oauthErrors.appNotFound(id);
      checkVersion(current.updatedAt);
      if (current.isPredefined && body.ApplicationTypeId !== current.applicationTypeId) {
        throw oauthErrors.predefinedAppType();
      }
      // A type change changes the scopes the app's tokens may carry: end its tokens. Bumping the
      // version their `ver` claim must match ends them for good, not only in the caches.
      typeChanged = body.ApplicationTypeId !== current.applicationTypeId;
      const [row] = await tx.query<AppRow>(
        `update oauth_apps
            set name = $3, description = $4, application_type_id = $5, updated_at = ${NEXT_UPDATED_AT},
                secret_version = secret_version + case when $6::boolean then 1 else 0 end
          where tenant_id = $1 and id = $2
          returning ${APP_COLUMNS}`,
        [tenantId, id, body.Name, body.Description ?? null, body.ApplicationTypeId, typeChanged],
      );
      if (typeChanged) await this.tokens.invalidateApp(tx, tenantId, id);
      return { app: toApp(row!), version: row!.updatedAt };
    });
    if (typeChanged) this.tokens.forget(tenantId, id);
    return result;
  }

  async delete(tenantId: number, id: string, checkVersion: (version: Date) => void): Promise<void> {
    await this.db.rawTransaction(async (tx) => {
      const [current] = await tx.query<AppRow>(
        `select ${APP_COLUMNS} from oauth_apps where tenant_id = $1 and id = $2 for update`,
        [tenantId, id],
      );
      if (!current) throw oauthErrors.appNotFound(id);
      checkVersion(current.updatedAt);
      if (current.isPredefined) throw oauthErrors.predefinedApp();
      await tx.query('delete from oauth_apps where tenant_id = $1 and id = $2', [tenantId, id]);
      await this.tokens.invalidateApp(tx, tenantId, id);
    });
    this.tokens.forget(tenantId, id);
  }

  async rotateSecret(tenantId: number, id: string): Promise<App> {
    const secret = generateSecret();
    const rotated = await this.db.rawTransaction(async (tx) => {
      const [row] = await tx.query<AppRow>(
        `update oauth_apps
            set secret_hash = $3, secret_version = secret_version + 1, updated_at = ${NEXT_UPDATED_AT}
          where tenant_id = $1 and id = $2
          returning ${APP_COLUMNS}`,
        [tenantId, id, hashSecret(secret)],
      );
      if (!row) throw oauthErrors.appNotFound(id);
      await this.tokens.invalidateApp(tx, tenantId, id);
      return toApp(row, secret);
    });
    this.tokens.forget(tenantId, id);
    return rotated;
  }
}
