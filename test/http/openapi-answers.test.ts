// The check every test's answers go through (test/support/openapi-answers.ts) catches what it is
// there to catch: on a tiny server whose document is deliberately wrong, an undocumented status,
// an undocumented field, an undocumented content type and an answer no operation names fail the
// call that received them; and on a hand-written document, a missing required header.
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkInjectedAnswers,
  closedSchema,
  OpenApiMismatch,
  OpenApiValidator,
  type Answer,
  type OpenApiDocument,
} from '../support/openapi-answers.ts';

const Note = Type.Object({ Id: Type.Integer(), Text: Type.String() });

let app: FastifyInstance;

beforeAll(async () => {
  // As the server's router: a trailing slash names the same route.
  app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  await app.register(swagger, {
    openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } },
  });
  // What each answer says is chosen by the query, so that one route can answer right and wrong.
  app.get<{ Querystring: { answer?: string } }>(
    '/notes/:id',
    { schema: { response: { 200: Note, 404: Type.Object({ Code: Type.String() }) } } },
    async (request, reply) => {
      switch (request.query.answer) {
        case 'created':
          return reply.code(201).send({ Id: 1, Text: 'a' });
        // A body written as text passes Fastify's serializer untouched, as the database's JSON
        // documents do: the serializer cannot drop a field the schema does not list.
        case 'extra-field':
          return reply.type('application/json').send('{"Id":1,"Text":"a","Secret":"b"}');
        case 'missing-field':
          return reply.type('application/json').send('{"Id":1}');
        case 'text':
          return reply.type('text/plain').send('a note');
        default:
          return { Id: 1, Text: 'a' };
      }
    },
  );
  app.get<{ Querystring: { answer?: string } }>(
    '/notes/latest',
    { schema: { response: { 200: Note } } },
    async (request, reply) =>
      request.query.answer === 'none'
        ? reply.code(404).send({ Code: 'NoNote' })
        : { Id: 2, Text: 'latest' },
  );
  app.get('/undocumented', { schema: { hide: true } }, async () => ({ Id: 1 }));
  await app.ready();
  checkInjectedAnswers(app);
});

afterAll(() => app.close());

const get = (url: string) => app.inject({ method: 'GET', url });

describe('answers that match the document', () => {
  it('pass and are returned to the caller', async () => {
    const response = await get('/notes/1');
    expect(response.json()).toEqual({ Id: 1, Text: 'a' });
  });

  it('are found by a literal segment before a parameter, as the router does', async () => {
    expect((await get('/notes/latest/')).json()).toEqual({ Id: 2, Text: 'latest' });
    // /notes/{id} documents a 404, /notes/latest does not: its operation is the one checked.
    await expect(get('/notes/latest?answer=none')).rejects.toThrow(
      /operation GET \/notes\/latest\) answered 404:\n {2}- status 404 is not documented \(documented: 200\)/,
    );
  });

  it('include HEAD answers, checked against the GET operation without a body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/notes/1' });
    expect(response.statusCode).toBe(200);
  });
});

describe('answers that do not match the document', () => {
  it('fail on a status the operation does not document', async () => {
    await expect(get('/notes/1?answer=created')).rejects.toThrow(OpenApiMismatch);
    await expect(get('/notes/1?answer=created')).rejects.toThrow(
      /GET \/notes\/1\?answer=created .*operation GET \/notes\/\{id\}.* answered 201:\n {2}- status 201 is not documented \(documented: 200, 404\)/s,
    );
  });

  it('fail on a field the schema does not list', async () => {
    await expect(get('/notes/1?answer=extra-field')).rejects.toThrow(
      /- body \/: field Secret is not in the document/,
    );
  });

  it('fail on a missing required field', async () => {
    await expect(get('/notes/1?answer=missing-field')).rejects.toThrow(
      /- body \/: required field Text is missing/,
    );
  });

  it('fail on a content type the document does not list', async () => {
    await expect(get('/notes/1?answer=text')).rejects.toThrow(
      /content type text\/plain is not documented \(documented: application\/json\)/,
    );
  });

  it('fail on a success of a route the document does not name', async () => {
    await expect(get('/undocumented')).rejects.toThrow(
      /no operation\) answered 200:\n {2}- no operation of the document is GET \/undocumented/,
    );
  });

  it('refuse the inject forms whose answer would escape the check', () => {
    expect(() => app.inject()).toThrow(/call it with options/);
  });
});

/** A document written by hand, for what @fastify/swagger cannot be made to get wrong. */
const document: OpenApiDocument = {
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          200: {
            headers: {
              ETag: { required: true, schema: { type: 'string' } },
              'RateLimit-Remaining': { schema: { type: 'integer' } },
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          404: {},
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        properties: { Id: { type: 'integer' }, Tags: { $ref: '#/components/schemas/Tags' } },
      },
      Tags: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
};

const answer = (headers: Answer['headers'], body = '{"Id":1}', status = 200): Answer => ({
  method: 'GET',
  url: '/things/1',
  host: 'acme.localhost',
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: Buffer.from(body),
});

describe('headers of an answer', () => {
  const validator = new OpenApiValidator(document);

  it('fail when a header the document marks required is missing', () => {
    expect(validator.problems(answer({})).problems).toEqual(['required header ETag is missing']);
    expect(validator.problems(answer({ etag: '"1"' })).problems).toEqual([]);
  });

  it('fail when a documented header does not match its schema', () => {
    const problems = validator.problems(answer({ etag: '"1"', 'ratelimit-remaining': 'many' }));
    expect(problems.problems).toEqual([
      expect.stringMatching(/^header RateLimit-Remaining: "many" .*integer/),
    ]);
    expect(
      validator.problems(answer({ etag: '"1"', 'ratelimit-remaining': '7' })).problems,
    ).toEqual([]);
  });

  it('fail when an answer documented without a body has one, or names a media type', () => {
    expect(validator.problems(answer({}, '{"Code":"x"}', 404)).problems).toEqual([
      'a body (application/json) where the document describes none',
    ]);
    expect(validator.problems(answer({}, '', 404)).problems).toEqual([
      'Content-Type application/json on an answer the document gives no body',
    ]);
    expect(validator.problems(answer({ 'content-type': undefined }, '', 404)).problems).toEqual([]);
  });

  it('take the free-form fields an object declares, through references', () => {
    const body = '{"Id":1,"Tags":{"colour":"red"}}';
    expect(validator.problems(answer({ etag: '"1"' }, body)).problems).toEqual([]);
    expect(
      validator.problems(answer({ etag: '"1"' }, '{"Id":1,"Tags":{"colour":1}}')).problems,
    ).toEqual([expect.stringMatching(/^body \/Tags\/colour: must be string/)]);
  });
});

describe('closing the schemas', () => {
  it('closes objects that do not declare other properties, and the parent of allOf members', () => {
    expect(
      closedSchema({
        allOf: [
          { type: 'object', properties: { A: { type: 'object' } } },
          { type: 'object', properties: { B: { type: 'string' } } },
        ],
      }),
    ).toEqual({
      allOf: [
        {
          type: 'object',
          properties: { A: { type: 'object', unevaluatedProperties: false } },
        },
        { type: 'object', properties: { B: { type: 'string' } } },
      ],
      unevaluatedProperties: false,
    });
  });

  it('closes each alternative of anyOf by itself and leaves declared maps open', () => {
    expect(
      closedSchema({
        anyOf: [{ type: 'object', properties: {} }, { type: 'null' }],
      }),
    ).toMatchObject({ anyOf: [{ unevaluatedProperties: false }, { type: 'null' }] });
    expect(closedSchema({ type: 'object', additionalProperties: true })).toEqual({
      type: 'object',
      additionalProperties: true,
    });
  });
});
