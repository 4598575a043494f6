// The CRUD route helper on a bare server with an in-memory service: what every small resource's
// routes promise (201 with Location and ETag, If-Match on writes, PUT and PATCH through one
// update told which it is, 204 on delete), whatever the resource.
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCrudRoutes, type IfMatchCheck } from '../../src/http/crud-routes.ts';
import { ErrorBodySchema } from '../../src/http/error-body.ts';
import { registerErrorHandling } from '../../src/http/error-handler.ts';
import { versionTag } from '../../src/http/etag.ts';
import type { RequestTenant } from '../../src/http/tenant-host.ts';
import type { Page } from '../../src/http/paging.ts';

interface Note {
  Id: number;
  Text: string;
}

/** Notes of one tenant in memory, recording how update was called. */
class NoteService {
  readonly rows = new Map<number, { value: Note; version: number }>();
  readonly updates: { tenantId: number; partial: boolean }[] = [];
  private nextId = 1;

  async create(_tenantId: number, body: { Text: string }) {
    const row = { value: { Id: this.nextId++, Text: body.Text }, version: 1 };
    this.rows.set(row.value.Id, row);
    return row;
  }
  async get(_tenantId: number, id: number) {
    const row = this.rows.get(id);
    if (!row) throw Object.assign(new Error('missing'), { statusCode: 404 });
    return row;
  }
  async update(
    tenantId: number,
    id: number,
    body: { Text?: string },
    checkVersion: IfMatchCheck<number>,
    partial: boolean,
  ) {
    this.updates.push({ tenantId, partial });
    const row = await this.get(tenantId, id);
    checkVersion(row.version);
    const next = {
      value: { ...row.value, Text: body.Text ?? row.value.Text },
      version: row.version + 1,
    };
    this.rows.set(id, next);
    return next;
  }
  async delete(tenantId: number, id: number, checkVersion: IfMatchCheck<number>) {
    checkVersion((await this.get(tenantId, id)).version);
    this.rows.delete(id);
  }
  async list(): Promise<Page<Note>> {
    const notes = [...this.rows.values()].map((row) => row.value);
    return { Results: notes, TotalCount: notes.length };
  }
}

const Note = Type.Object({ Id: Type.Integer(), Text: Type.String() }, { title: 'Note' });
const NoteBody = Type.Object({ Text: Type.String() }, { additionalProperties: false });
const NotePatch = Type.Object({ Text: Type.Optional(Type.String()) });
const IdParams = Type.Object({ id: Type.Integer() });

let app: FastifyInstance;
const notes = new NoteService();
const routes: RouteOptions[] = [];

beforeAll(async () => {
  app = Fastify();
  app.addSchema(ErrorBodySchema);
  registerErrorHandling(app);
  app.decorateRequest('tenant', null as unknown as RequestTenant);
  app.addHook('onRequest', async (request) => {
    request.tenant = { id: 7 } as RequestTenant;
  });
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  registerCrudRoutes(app, {
    tags: ['Notes'],
    name: { one: 'Note', many: 'Notes' },
    path: '/notes/note',
    params: IdParams,
    resource: Note,
    etagOf: versionTag,
    service: notes,
    create: { summary: 'Create a note', body: NoteBody },
    get: { summary: 'Fetch a note' },
    put: { summary: 'Update a note', body: NoteBody, errors: [412] },
    patch: { summary: 'Partially update a note', body: NotePatch, errors: [412] },
    delete: { summary: 'Delete a note', errors: [412] },
    list: { path: '/notes/notes', summary: 'List notes', response: Type.Any() },
  });
  await app.ready();
});
afterAll(() => app.close());

describe('registerCrudRoutes', () => {
  it('documents each operation: an operationId from the name, the shared text, If-Match and 412 on writes', () => {
    const documented = routes
      .filter((route) => route.method !== 'HEAD')
      .map((route) => {
        const schema = route.schema as {
          operationId: string;
          description: string;
          headers?: { properties: Record<string, unknown> };
          response: Record<string, unknown>;
        };
        return {
          route: `${String(route.method)} ${route.url}`,
          operationId: schema.operationId,
          ifMatch: schema.headers?.properties['If-Match'] !== undefined,
          precondition: '412' in schema.response,
        };
      });
    expect(documented).toEqual([
      { route: 'POST /notes/note', operationId: 'createNote', ifMatch: false, precondition: false },
      { route: 'GET /notes/note/:id', operationId: 'getNote', ifMatch: false, precondition: false },
      {
        route: 'PUT /notes/note/:id',
        operationId: 'updateNote',
        ifMatch: true,
        precondition: true,
      },
      {
        route: 'PATCH /notes/note/:id',
        operationId: 'patchNote',
        ifMatch: true,
        precondition: true,
      },
      {
        route: 'DELETE /notes/note/:id',
        operationId: 'deleteNote',
        ifMatch: true,
        precondition: true,
      },
      { route: 'GET /notes/notes', operationId: 'listNotes', ifMatch: false, precondition: false },
    ]);
    const put = routes.find((route) => route.method === 'PUT')!.schema as { description: string };
    expect(put.description).toMatch(
      /^Answers the updated resource.*If-Match, 412 PreconditionFailed/,
    );
  });

  it('creates with 201, the Location of the new resource and its ETag', async () => {
    const response = await app.inject({ method: 'POST', url: '/notes/note', body: { Text: 'a' } });
    expect(response.statusCode).toBe(201);
    expect(response.headers.location).toBe('/notes/note/1');
    expect(response.headers.etag).toBe('"v1"');
    expect(response.json()).toEqual({ Id: 1, Text: 'a' });
  });

  it('fetches with the ETag of the current version', async () => {
    const response = await app.inject({ url: '/notes/note/1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"v1"');
  });

  it('sends PUT and PATCH through the one update, telling which, with If-Match checked', async () => {
    const put = await app.inject({
      method: 'PUT',
      url: '/notes/note/1',
      headers: { 'if-match': '"v1"' },
      body: { Text: 'b' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.headers.etag).toBe('"v2"');
    const stale = await app.inject({
      method: 'PATCH',
      url: '/notes/note/1',
      headers: { 'if-match': '"v1"' },
      body: {},
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ Code: 'PreconditionFailed' });
    const patch = await app.inject({ method: 'PATCH', url: '/notes/note/1', body: {} });
    expect(patch.json()).toEqual({ Id: 1, Text: 'b' });
    expect(notes.updates).toEqual([
      { tenantId: 7, partial: false },
      { tenantId: 7, partial: true },
      { tenantId: 7, partial: true },
    ]);
  });

  it('lists, and deletes with 204 once If-Match holds', async () => {
    expect((await app.inject({ url: '/notes/notes' })).json()).toEqual({
      Results: [{ Id: 1, Text: 'b' }],
      TotalCount: 1,
    });
    const stale = await app.inject({
      method: 'DELETE',
      url: '/notes/note/1',
      headers: { 'if-match': '"v1"' },
    });
    expect(stale.statusCode).toBe(412);
    const deleted = await app.inject({ method: 'DELETE', url: '/notes/note/1' });
    expect(deleted.statusCode).toBe(204);
    expect(notes.rows.size).toBe(0);
  });
});
