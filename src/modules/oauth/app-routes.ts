// /management/oauth/apps (contract §5.1).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/error-body.ts';
import { checkIfMatch, setEtag } from '../../http/etag.ts';
import { sendJsonText } from '../../http/json-text.ts';
import { PagingQuery } from '../../http/paging.ts';
import { ETAG, withHeaders } from '../../http/response-headers.ts';
import { App, AppBody, AppIdParams, AppList } from './app-schemas.ts';
import type { AppService } from './app-service.ts';

const tags = ['Apps'];

export const appRoutes: FastifyPluginAsync<{ apps: AppService }> = async (instance, { apps }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/management/oauth/apps',
    { schema: { tags, summary: 'Create an app', body: AppBody, response: { 201: App } } },
    async (request, reply) => {
      const created = await apps.create(request.tenant.id, request.body);
      reply.header('Location', `/management/oauth/apps/${created.ApplicationId}`);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/management/oauth/apps',
    {
      schema: {
        tags,
        summary: 'Fetch a list of apps',
        querystring: PagingQuery,
        response: { 200: AppList },
      },
    },
    async (request) => apps.list(request.tenant.id, request.query),
  );

  app.get(
    '/management/oauth/apps/:applicationId',
    {
      schema: {
        tags,
        summary: 'Fetch an app by its id',
        params: AppIdParams,
        response: { 200: withHeaders(App, ETAG) },
      },
    },
    async (request, reply) => {
      const { json, version } = await apps.get(request.tenant.id, request.params.applicationId);
      setEtag(reply, version);
      return sendJsonText(reply, json);
    },
  );

  app.put(
    '/management/oauth/apps/:applicationId',
    {
      schema: {
        tags,
        summary: 'Update an app (name, description, type)',
        description:
          'Honours If-Match (412 when the app changed). The type of a predefined app cannot change (409).',
        params: AppIdParams,
        body: AppBody,
        response: { 200: withHeaders(App, ETAG), ...errorResponses(409, 412) },
      },
    },
    async (request, reply) => {
      const { app: updated, version } = await apps.update(
        request.tenant.id,
        request.params.applicationId,
        request.body,
        (current) => checkIfMatch(request, current),
      );
      setEtag(reply, version);
      return updated;
    },
  );

  app.delete(
    '/management/oauth/apps/:applicationId',
    {
      schema: {
        tags,
        summary: 'Delete an app',
        description: 'Its tokens stop working at once. Predefined apps cannot be deleted (409).',
        params: AppIdParams,
        response: {
          204: Type.Null({ description: 'Deleted' }),
          ...errorResponses(409, 412),
        },
      },
    },
    async (request, reply) => {
      await apps.delete(request.tenant.id, request.params.applicationId, (current) =>
        checkIfMatch(request, current),
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/management/oauth/apps/:applicationId/secret',
    {
      schema: {
        tags,
        summary: "Rotate an app's secret",
        description:
          'Answers the app with its new secret, shown this once. Tokens issued before stop working at once.',
        params: AppIdParams,
        response: { 200: App },
      },
    },
    async (request) => apps.rotateSecret(request.tenant.id, request.params.applicationId),
  );
};
