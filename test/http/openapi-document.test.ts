// The OpenAPI document as integrators' tools read it: every operation named, tagged and described,
// the truth about tokens, defaults, conditional writes and streamed bodies, examples its own
// schemas accept, and the committed openapi.json the same as what the server serves.
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { registerOpenApi, serversOf } from '../../src/http/openapi.ts';
import { OPENAPI_FILE, openApiText } from '../../src/openapi-document.ts';
import { useTestApi, useTenant } from '../support/test-api.ts';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { default?: unknown };
}
interface Media {
  schema: object;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const api = useTestApi();
const acme = useTenant(api, 'acme');
let served: string;
let document: Document;
const operations: { method: string; path: string; operation: Operation }[] = [];
const byId = new Map<string, Operation>();

beforeAll(async () => {
  const response = await api.app.inject({ url: '/openapi.json', headers: { host: 'localhost' } });
  expect(response.statusCode).toBe(200);
  served = response.body;
  document = response.json<Document>();
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(item)) {
      operations.push({ method: method.toUpperCase(), path, operation });
      if (operation.operationId) byId.set(operation.operationId, operation);
    }
});

const where = ({ method, path }: { method: string; path: string }) => `${method} ${path}`;
const parameter = (operationId: string, name: string) =>
  byId.get(operationId)?.parameters?.find((p) => p.name === name);

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

describe('GET /openapi.json', () => {
  it('gives every operation a unique camelCase operationId, a declared tag, a summary and a description', () => {
    expect(operations.length).toBeGreaterThan(170);
    const declared = new Set(document.tags.map((tag) => tag.name));
    const ids = new Map<string, string>();
    for (const entry of operations) {
      const { operationId, summary, description, tags } = entry.operation;
      expect(operationId, where(entry)).toMatch(/^[a-z]+[A-Za-z0-9]*$/);
      expect(ids.get(operationId!), `${where(entry)} repeats an operationId`).toBeUndefined();
      ids.set(operationId!, where(entry));
      expect(summary?.trim(), `${where(entry)}: summary`).toBeTruthy();
      expect(description?.trim(), `${where(entry)}: description`).toBeTruthy();
      expect(tags?.length, `${where(entry)}: tags`).toBeGreaterThan(0);
      for (const tag of tags ?? []) expect(declared.has(tag), `${where(entry)}: ${tag}`).toBe(true);
    }
    // A few names as a client generator will show them.
    for (const id of ['getItem', 'listItems', 'createBrand', 'updateBrand', 'deleteBrand'])
      expect(byId.has(id), id).toBe(true);
    expect(byId.get('issueToken')).toBe(document.paths['/oauth/token']!.post);
    expect(byId.get('patchCategory')).toBe(document.paths['/private/catalog/category/{id}']!.patch);
    expect(document.paths['/storage/blobs/{key}']!.head!.operationId).toBe('headAssetContent');
  });

  it('lists every tag its operations use, each with a description, and no other', () => {
    const used = new Set(operations.flatMap(({ operation }) => operation.tags ?? []));
    expect(document.tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of document.tags) expect(tag.description?.trim(), tag.name).toBeTruthy();
  });

  it('says security: [] where no token is taken, client authentication on the token endpoints, and the scope elsewhere', () => {
    const noToken = [
      'GET /health/live',
      'GET /health/ready',
      'GET /.well-known/oauth-authorization-server',
      'GET /.well-known/jwks.json',
      'GET /oauth/authorize',
      'POST /oauth/authorize',
      'GET /oauth/invitation',
      'POST /oauth/invitation',
      'GET /storage/blobs/{key}',
      'HEAD /storage/blobs/{key}',
    ];
    for (const entry of operations) {
      const { security } = entry.operation;
      if (noToken.includes(where(entry))) expect(security, where(entry)).toEqual([]);
      else if (['/oauth/token', '/oauth/revoke', '/oauth/introspect'].includes(entry.path))
        expect(security, where(entry)).toEqual([{ appCredentials: [] }, {}]);
      else {
        const scope = /^\/(management|private)\//.exec(entry.path)?.[1] ?? 'public';
        expect(security, where(entry)).toEqual([{ bearer: [] }, { oauth2: [scope] }]);
      }
    }
  });

  it('marks no parameter that the server defaults as required, and shows its default', () => {
    for (const entry of operations)
      for (const p of entry.operation.parameters ?? [])
        if (p.schema?.default !== undefined)
          expect(p.required, `${where(entry)} ${p.name}`).toBe(false);
    const defaults: [string, string, unknown][] = [
      ['listItems', 'skip', 0],
      ['listItems', 'take', 20],
      ['listCounterLogs', 'take', 100],
      ['addItemImage', 'isDefault', false],
      ['deleteAsset', 'force', false],
      ['listStoreLogicalDevices', 'includeMetadata', false],
      ['listNearestStoreLogicalDevices', 'searchDistance', 5],
    ];
    for (const [operationId, name, value] of defaults)
      expect(parameter(operationId, name), `${operationId} ${name}`).toMatchObject({
        required: false,
        schema: { default: value },
      });
    expect(parameter('addItemImage', 'assetId')?.required).toBe(true);
  });

  it('documents the If-Match header on exactly the operations that answer 412', () => {
    const conditional = operations.filter(({ operation }) =>
      operation.parameters?.some((p) => p.in === 'header' && p.name === 'If-Match'),
    );
    for (const entry of operations) {
      const takesIfMatch = conditional.includes(entry);
      expect('412' in entry.operation.responses, where(entry)).toBe(takesIfMatch);
    }
    const ids = conditional.map(({ operation }) => operation.operationId);
    expect(ids).toEqual(
      expect.arrayContaining([
        'updateStore',
        'deleteStore',
        'updateDeviceType',
        'deleteDeviceType',
        'updateWebhook',
        'deleteWebhook',
        'replaceTrendingWeights',
        'updateAnalyticsSettings',
        'updateItem',
        'patchItemByBodyId',
        'deleteEndpoint',
        'deleteAsset',
      ]),
    );
    expect(parameter('getAssetContent', 'If-None-Match')).toMatchObject({ required: false });
  });

  it('documents the bodies read as streams with the media types they take, which are taken', async () => {
    const upload = byId.get('uploadRawAsset')!.requestBody!;
    expect(upload.required).toBe(true);
    for (const media of Object.values(upload.content))
      expect(media.schema).toEqual({ type: 'string', format: 'binary' });
    const imported = byId.get('startImport')!.requestBody!;
    expect(imported.required).toBe(false);
    const types = Object.keys(imported.content);
    expect(types).toEqual(expect.arrayContaining(['application/x-ndjson', 'text/csv']));
    for (const type of types) {
      const file = type === 'text/csv' ? 'Title\nImported\n' : '{"Title":"Imported"}\n';
      const response = await api.app.inject({
        method: 'POST',
        url: '/private/catalog/imports?errorPolicy=SkipFailedRows',
        headers: {
          host: acme.host,
          authorization: `Bearer ${acme.token}`,
          'content-type': type,
        },
        payload: file,
      });
      expect(response.statusCode, `${type}: ${response.body}`).toBe(202);
    }
  });

  it('types a fetched item as a body its update takes', async () => {
    const created = await api.call({
      method: 'POST',
      url: '/private/catalog/item',
      tenant: acme,
      body: { Title: 'Round trip', ItemStatusId: 2 },
    });
    expect(created.statusCode).toBe(201);
    const fetched = await api.call({
      url: `/private/catalog/item/${created.json<{ Id: number }>().Id}`,
      tenant: acme,
    });
    const answer = byId.get('getItem')!.responses['200']!.content!['application/json']!.schema as {
      properties: Record<string, unknown>;
    };
    const body = byId.get('updateItem')!.requestBody!.content['application/json']!.schema as {
      properties: Record<string, unknown>;
    };
    // The same values on both sides (a generated client types both `1 | 2`).
    const ajv = validator();
    const statusIn = (schema: unknown) => {
      const accepts = ajv.compile(schema as object);
      return [0, 1, 2, 3, 1.5].filter((value) => accepts(value));
    };
    expect(statusIn(answer.properties.ItemStatusId)).toEqual([1, 2]);
    expect(statusIn(body.properties.ItemStatusId)).toEqual([1, 2]);
    const validate = ajv.compile(body);
    expect(validate(fetched.json()), JSON.stringify(validate.errors)).toBe(true);
  });

  it('shows an example of each main resource, one its schema accepts', () => {
    const ajv = validator();
    const answers = ['getItem', 'getBrand', 'getCategory', 'getStore', 'getApp', 'getWebhook'];
    const bodies = ['createItem', 'createBrand', 'createStore'];
    const media = [
      ...answers.map((id) => [id, byId.get(id)!.responses['200']!.content] as const),
      ...bodies.map((id) => [id, byId.get(id)!.requestBody!.content] as const),
    ];
    for (const [id, content] of media) {
      const { schema, example } = content!['application/json']!;
      expect(example, id).toBeDefined();
      const validate = ajv.compile(schema);
      expect(validate(example), `${id}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});

describe('openapi.json', () => {
  it('is the document the server serves (npm run openapi rewrites it)', async () => {
    const committed = await readFile(OPENAPI_FILE, 'utf8');
    const current = openApiText(JSON.parse(served));
    // One line instead of a diff of a megabyte: the fix is always to run the script.
    expect(committed === current, 'openapi.json is stale: run `npm run openapi`').toBe(true);
  });
});

describe('servers', () => {
  /** The URL a client makes of a server entry with its variables' defaults. */
  const urls = (env: Record<string, string>) =>
    serversOf(loadConfig({ DATA_DIR: '/nonexistent', ...env })).map((server) =>
      Object.entries(server.variables).reduce(
        (url, [name, variable]) => url.replace(`{${name}}`, variable.default),
        server.url,
      ),
    );

  it('follow the URL clients use: PUBLIC_SCHEME, PUBLIC_PORT, PORT and API_HOST', () => {
    expect(urls({})).toEqual(['http://demo.localhost:8080']);
    expect(urls({ PORT: '9090' })).toEqual(['http://demo.localhost:9090']);
    expect(urls({ PORT: '9090', PUBLIC_PORT: '8443', PUBLIC_SCHEME: 'https' })).toEqual([
      'https://demo.localhost:8443',
    ]);
    expect(
      urls({ PUBLIC_SCHEME: 'https', PUBLIC_PORT: '443', API_HOST: 'api.example.com' }),
    ).toEqual(['https://demo.api.example.com']);
    expect(urls({ PUBLIC_PORT: '80' })).toEqual(['http://demo.localhost']);
  });

  it('put the default tenant first in single-tenant mode, on a host that names no tenant', () => {
    expect(urls({ DEFAULT_TENANT: 'demo', PORT: '9090' })).toEqual([
      'http://localhost:9090',
      'http://demo.localhost:9090',
    ]);
  });

  it('are what the server serves', async () => {
    const document = JSON.parse(served) as { servers: unknown };
    expect(document.servers).toEqual(serversOf(api.config));
  });
});

describe('registerOpenApi', () => {
  const start = async (schema: object) => {
    const app = Fastify();
    await registerOpenApi(app, {
      tags: [{ name: 'Notes', description: 'Notes.' }],
      servers: () => [],
      errorCodes: [],
    });
    app.get('/notes', { schema }, async () => []);
    try {
      await app.ready();
    } finally {
      await app.close();
    }
  };
  const complete = {
    tags: ['Notes'],
    operationId: 'listNotes',
    summary: 'List notes',
    description: 'Every note.',
  };

  it('starts with operations that say all the document needs', async () => {
    await expect(start(complete)).resolves.toBeUndefined();
  });

  it('refuses to start with an operation without an operationId, a description or a declared tag', async () => {
    const { operationId: _id, ...unnamed } = complete;
    await expect(start(unnamed)).rejects.toThrow(/GET \/notes: .*operationId/);
    const { description: _text, ...undescribed } = complete;
    await expect(start(undescribed)).rejects.toThrow(/description/);
    await expect(start({ ...complete, tags: ['Other'] })).rejects.toThrow(
      /"Other" is not declared/,
    );
  });
});
