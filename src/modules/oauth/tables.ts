import {
  bigint,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

// The table also has `document`, the app's wire-shape JSON that a trigger keeps
// (0009_app_documents.sql). Only the app fetch reads it, in its own SQL; left out here so that no
// other select or returning() carries it.
export const oauthApps = pgTable(
  'oauth_apps',
  {
    tenantId: integer('tenant_id').notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    applicationTypeId: smallint('application_type_id').notNull(),
    isPredefined: boolean('is_predefined').notNull().default(false),
    secretHash: text('secret_hash').notNull(),
    secretVersion: integer('secret_version').notNull().default(1),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  algorithm: text('algorithm').notNull(),
  privateJwk: jsonb('private_jwk').notNull(),
  publicJwk: jsonb('public_jwk').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  retiredAt: timestamptz('retired_at'),
});

export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    tenantId: integer('tenant_id').notNull(),
    jti: uuid('jti').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.jti] })],
);

// app_id null: every token of the tenant (it was deleted).
export const authInvalidations = pgTable(
  'auth_invalidations',
  {
    tenantId: integer('tenant_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    appId: uuid('app_id'),
    jti: uuid('jti'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.seq] })],
);

export const clientAuthFailures = pgTable(
  'client_auth_failures',
  {
    tenantId: integer('tenant_id').notNull(),
    clientId: text('client_id').notNull(),
    source: text('source').notNull(),
    failures: integer('failures').notNull(),
    firstFailedAt: timestamptz('first_failed_at').notNull().defaultNow(),
    lockedUntil: timestamptz('locked_until'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.clientId, t.source] })],
);
