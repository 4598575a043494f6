// /management/integration/endpoint and its subscription key (contract §5.2).
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { toApiError } from '../../http/error-handler.ts';
import { checkIfMatch, IF_MATCH_NOTE, IfMatchHeaders, setEtag } from '../../http/etag.ts';
import type { DomainError } from '../../domain/domain-error.ts';
import type { ApiError } from '../../http/errors.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { CreateEndpointBody, Endpoint, SubscriptionKey } from './endpoint-schemas.ts';
import type { EndpointService } from './endpoint-service.ts';
import { integrationErrors } from './integration-errors.ts';

export const endpointTag: OpenApiTag = {
  name: 'Integration endpoint',
  description:
    "The tenant's integration endpoint: a gateway host for its integrators with a rate limit " +
    'per service tier, a subscription key and a developer portal.',
};
const tags = [endpointTag.name];
const path = '/management/integration/endpoint';
const errorRef = { $ref: 'ErrorBody#' };

/** A body that fails the schema gets the contract's specific code for the field at fault. */
function bodyError(request: FastifyRequest): ApiError | DomainError | undefined {
  const error = request.validationError;
  if (!error) return undefined;
  const general = toApiError(error as FastifyError);
  const fields = general.errors?.map((e) => e.Field) ?? [];
  if (fields.includes('ServiceTier')) return integrationErrors.invalidServiceTier();
  if (fields.includes('ServiceName')) return integrationErrors.invalidServiceName();
  if (fields.includes('AdminMail')) return integrationErrors.invalidAdminMail();
  return general;
}

export const endpointRoutes: FastifyPluginAsync<{ endpoints: EndpointService }> = async (
  instance,
  { endpoints },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    path,
    {
      attachValidation: true,
      schema: {
        tags,
        operationId: 'createEndpoint',
        summary: 'Create the integration endpoint',
        description:
          'Starts the creation (Status 1); poll GET until Status is 2 (succeeded) or 3 (failed). 400 InvalidServiceTier, ' +
          'InvalidServiceName, InvalidAdminMail, EndpointAlreadyExists; 409 ServiceNameTaken (names are unique across tenants).',
        body: CreateEndpointBody,
        response: {
          201: { description: 'Creation started (no body).', type: 'null' },
          409: errorRef,
        },
      },
    },
    async (request, reply) => {
      const invalid = bodyError(request);
      if (invalid) throw invalid;
      await endpoints.create(request.tenant.id, request.body);
      // No body, so no Content-Type: a JSON type on an empty body fails JSON clients' parsing.
      return reply.code(201).header('Location', path).send();
    },
  );

  app.get(
    path,
    {
      schema: {
        tags,
        operationId: 'getEndpoint',
        summary: 'The integration endpoint and its creation status',
        description:
          'Status 1 while it is being created, 2 once it serves, 3 when its creation failed. ' +
          'With its ETag (it moves with the status and the key); 404 EndpointNotFound when ' +
          'there is none.',
        response: { 200: Endpoint },
      },
    },
    async (request, reply) => {
      const { endpoint, version } = await endpoints.get(request.tenant.id);
      setEtag(reply, version);
      return endpoint;
    },
  );

  app.delete(
    path,
    {
      schema: {
        tags,
        operationId: 'deleteEndpoint',
        summary: 'Delete the integration endpoint (cancels a creation in progress)',
        description:
          'Frees its service name, gateway host and subscription key at once. Answers 204; 404 ' +
          `EndpointNotFound when there is none. ${IF_MATCH_NOTE}`,
        headers: IfMatchHeaders,
        response: { 204: Type.Null(), 412: errorRef },
      },
    },
    async (request, reply) => {
      await endpoints.delete(request.tenant.id, (current) => checkIfMatch(request, current));
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${path}/subscriptionkey`,
    {
      schema: {
        tags,
        operationId: 'getSubscriptionKey',
        summary: "The integrators' subscription key (404 until Status 2)",
        description:
          'The key integrators send as X-Subscription-Key to the gateway. 404 ' +
          'SubscriptionKeyNotFound until the endpoint is created (Status 2).',
        response: { 200: SubscriptionKey },
      },
    },
    async (request) => ({ SubscriptionKey: await endpoints.subscriptionKey(request.tenant.id) }),
  );

  app.post(
    `${path}/subscriptionkey`,
    {
      schema: {
        tags,
        operationId: 'regenerateSubscriptionKey',
        summary: 'Regenerate the subscription key (the old one stops working at once)',
        description:
          'Answers the new key; the gateway refuses the old one from the next request. 404 ' +
          'SubscriptionKeyNotFound until the endpoint is created (Status 2).',
        response: { 200: SubscriptionKey },
      },
    },
    async (request) => ({
      SubscriptionKey: await endpoints.regenerateSubscriptionKey(request.tenant.id),
    }),
  );
};
