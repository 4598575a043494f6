// /management/oauth/apps (contract §5.1).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { assertBodyIdMatches } from '../../domain/body-id.ts';
import { errorResponses } from '../../http/error-body.ts';
import { checkIfMatch, IF_MATCH_NOTE, IfMatchHeaders, setEtag } from '../../http/etag.ts';
import { sendJsonText } from '../../http/json-text.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { PagingQuery } from '../../http/paging.ts';
import { ETAG, withHeaders } from '../../http/response-headers.ts';
import { App, AppBody, AppIdParams, AppList } from './app-schemas.ts';
import type { AppService } from './app-service.ts';

export const appsTag: OpenApiTag = {
  name: 'Apps',
  description:
    "The tenant's OAuth clients: each app has an ApplicationId and a secret to get tokens with, " +
    'and a type that decides its scopes.',
};
const tags = [appsTag.name];

export const appRoutes: FastifyPluginAsync<{ apps: AppService }> = async (instance, { apps }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/management/oauth/apps',
    {
      schema: {
        tags,
        operationId: 'createApp',
        summary: 'Create an app',
        description:
          'Answers 201 with the app and its ApplicationSecret, shown this once (store it), and ' +
          'its Location. Its type (ApplicationTypeId) decides the scopes its tokens may have. ' +
          'Names need not be unique: an app is identified by its ApplicationId, never by name.',
        body: AppBody,
        response: { 201: App },
      },
    },
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
        operationId: 'listApps',
        summary: 'Fetch a list of apps',
        description:
          'Without their secrets. One page at a time: skip (default 0) and take (1 to 1000, ' +
          'default 20); TotalCount counts them all.',
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
        operationId: 'getApp',
        summary: 'Fetch an app by its id',
        description:
          'Without its secret, with its ETag (send it as If-Match to make a later change ' +
          'conditional). 404 for an unknown id.',
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
        operationId: 'updateApp',
        summary: 'Update an app (name, description, type)',
        description:
          "The type of a predefined app cannot change (409 PredefinedAppType); a new type ends the app's tokens. " +
          'Another app of the tenant may have the same name. ' +
          `Answers the app with its new ETag. ${IF_MATCH_NOTE}`,
        params: AppIdParams,
        headers: IfMatchHeaders,
        body: AppBody,
        response: { 200: withHeaders(App, ETAG), ...errorResponses(409, 412) },
      },
    },
    async (request, reply) => {
      // uuids name the same app in any case.
      assertBodyIdMatches(
        request.body.ApplicationId?.toLowerCase(),
        request.params.applicationId.toLowerCase(),
      );
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
        operationId: 'deleteApp',
        summary: 'Delete an app',
        description:
          'Its tokens stop working at once. Predefined apps cannot be deleted (409). Answers ' +
          `204. ${IF_MATCH_NOTE}`,
        params: AppIdParams,
        headers: IfMatchHeaders,
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
        operationId: 'rotateAppSecret',
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
