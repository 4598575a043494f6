// The history of one resource at its own path (docs/api.md, "Change history"): every module that
// owns a kind of resource declares, with one call, `GET <path>/history` (a page of its entries,
// newest first) and `GET <path>/history/{version}` (one entry with its data). They belong to the
// permission area "history" whatever the module's, so a member reads them only with a role that
// grants history:read; the path's prefix decides the token's scope as for every route.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TObject, type TProperties } from 'typebox';
import { DomainError } from '../domain/domain-error.ts';
import { changeVersion, hasChanges } from '../db/changes/change-history-reads.ts';
import type { RawSql } from '../db/connection/database.ts';
import { historyEntryOf, historyPage } from '../db/changes/change-history-entries.ts';
import {
  HistoryEntryWithData,
  HistoryPage,
  HistoryPageQuery,
  VersionParam,
} from './history-schemas.ts';

/** The tag of every history operation (the history module declares it). */
export const HISTORY_TAG = 'Change history';

/** The permission area of every history route. */
export const HISTORY_AREA = 'history';

export const historyVersionNotFound = (version: number) =>
  new DomainError(
    'not-found',
    'HistoryVersionNotFound',
    `The resource has no version ${version} in its history.`,
  );

export interface HistoryRoutes<P extends TProperties> {
  /** The resource's path (`/private/catalog/item/:id`; a singleton's has no parameter). */
  url: string;
  /** The resource kind its entries name (change_history.resource). */
  resource: string;
  /** For the operationIds and texts: `Item` gives listItemHistory, getItemHistoryVersion. */
  name: string;
  /** The path parameters of `url` (none for a singleton). */
  params?: TObject<P>;
  /** The resource id its entries name, from the path's parameters; none for a singleton. */
  resourceId?: (params: Record<string, unknown>) => string;
  /** Whether the resource exists now (its history is asked for before any change recorded it). */
  exists: (tenantId: number, params: Record<string, unknown>) => Promise<boolean>;
  /** The resource's own not-found error, for a resource that neither exists nor ever did. */
  notFound: (params: Record<string, unknown>) => DomainError;
  database: RawSql;
}

/** `get`'s answer as a boolean: false where it throws a not-found error. */
export async function existsBy(get: () => Promise<unknown>): Promise<boolean> {
  try {
    const value = await get();
    return value !== undefined && value !== null;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not-found') return false;
    throw error;
  }
}

const notFoundResponse = { 404: { $ref: 'ErrorBody#' } };

/** Declares `GET <url>/history` and `GET <url>/history/:version` for one kind of resource. */
export function registerHistoryRoutes<P extends TProperties>(
  instance: FastifyInstance,
  options: HistoryRoutes<P>,
): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { url, resource, name, database } = options;
  const properties = options.params?.properties ?? {};
  const listParams = Object.keys(properties).length ? Type.Object(properties) : undefined;
  const versionParams = Type.Object({ ...properties, version: VersionParam });
  const idOf = (params: Record<string, unknown>) => options.resourceId?.(params);
  const singular = options.resourceId === undefined;
  const config = { area: HISTORY_AREA };

  /** 404 in the resource's own words when it neither exists nor has any entry. */
  const checkKnown = async (tenantId: number, params: Record<string, unknown>) => {
    if (await hasChanges(database, tenantId, resource, idOf(params))) return;
    if (!(await options.exists(tenantId, params))) throw options.notFound(params);
  };

  app.get(
    `${url}/history`,
    {
      config,
      schema: {
        tags: [HISTORY_TAG],
        operationId: `list${name}History`,
        summary: `The change history of ${singular ? 'the' : 'a'} ${name.toLowerCase()}`,
        description:
          'Its entries, newest first: who changed it, when, from where and what changed ' +
          '(Changes: field paths with their old and new values). Take 1..100 (default 20); the ' +
          "answer's Continuation, sent back as Continuation, gives the next page (null on the " +
          'last; 400 InvalidHistoryContinuation for a token not of this query). Entries of a ' +
          'deleted resource still answer; 404 when it neither exists nor has any entry.',
        ...(listParams ? { params: listParams } : {}),
        querystring: HistoryPageQuery,
        response: { 200: HistoryPage, ...notFoundResponse },
      },
    },
    async (request) => {
      const tenantId = request.tenant.id;
      const params = (request.params ?? {}) as Record<string, unknown>;
      const id = idOf(params);
      const { Take, Continuation } = request.query;
      const page = await historyPage(
        database,
        tenantId,
        `${resource}\n${id ?? ''}`,
        { resource, ...(id !== undefined ? { resourceId: id } : {}) },
        Take,
        Continuation,
      );
      // No entry at all (a first page is empty only then): is there such a resource?
      if (page.Results.length === 0 && Continuation === undefined)
        if (!(await options.exists(tenantId, params))) throw options.notFound(params);
      return page;
    },
  );

  app.get(
    `${url}/history/:version`,
    {
      config,
      schema: {
        tags: [HISTORY_TAG],
        operationId: `get${name}HistoryVersion`,
        summary: `One version of ${singular ? 'the' : 'a'} ${name.toLowerCase()}, with its data`,
        description:
          'The entry that made that version, with Data: the resource as the API showed it ' +
          'after the change (without secrets). 404 HistoryVersionNotFound when it has no such ' +
          "version; the resource's own 404 when it neither exists nor has any entry.",
        params: versionParams,
        response: { 200: HistoryEntryWithData, ...notFoundResponse },
      },
    },
    async (request) => {
      const tenantId = request.tenant.id;
      const params: Record<string, unknown> = request.params;
      const version = params.version as number;
      const row = await changeVersion(database, tenantId, resource, idOf(params), version);
      if (row) return historyEntryOf(row, true);
      await checkKnown(tenantId, params);
      throw historyVersionNotFound(version);
    },
  );
}
