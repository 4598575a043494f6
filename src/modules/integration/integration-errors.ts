// The integration module's error codes (docs/api.md, "Integration endpoint").
import { DomainError, invalid } from '../../domain/domain-error.ts';
import type { ErrorCodes } from '../../domain/error-code-list.ts';

export const integrationErrors = {
  invalidServiceTier: () =>
    invalid(
      'InvalidServiceTier',
      'ServiceTier must be 0 (Developer), 1 (Standard) or 2 (Premium).',
    ),
  invalidServiceName: () =>
    invalid(
      'InvalidServiceName',
      'ServiceName must be 2 to 50 letters, digits or hyphens, start with a letter and not end with a hyphen.',
    ),
  invalidAdminMail: () => invalid('InvalidAdminMail', 'AdminMail must be a valid e-mail address.'),
  endpointAlreadyExists: () =>
    invalid(
      'EndpointAlreadyExists',
      'This tenant already has an integration endpoint; delete it first.',
    ),
  endpointNotFound: () =>
    new DomainError('not-found', 'EndpointNotFound', 'This tenant has no integration endpoint.'),
  keyNotReady: () =>
    new DomainError(
      'not-found',
      'SubscriptionKeyNotFound',
      'There is no subscription key until the integration endpoint is created (Status 2).',
    ),
  serviceNameTaken: (name: string) =>
    new DomainError(
      'conflict',
      'ServiceNameTaken',
      `The service name "${name}" is taken; choose another one.`,
    ),
  noLiveEndpoint: (host: string) =>
    new DomainError('not-found', 'EndpointNotFound', `No integration endpoint is live at ${host}.`),
  invalidSubscriptionKey: () =>
    new DomainError(
      'unauthenticated',
      'InvalidSubscriptionKey',
      'A valid X-Subscription-Key header is required to call this gateway.',
    ),
  rateLimited: (limit: number, resetSeconds: number) =>
    new DomainError(
      'rate-limited',
      'RateLimited',
      `This endpoint's tier allows ${limit} requests per second.`,
      {
        retryAfterSeconds: resetSeconds,
      },
    ),
};

/** The codes the integration module answers besides the shared ones (src/http/error-codes.ts). */
export const integrationErrorCodes = {
  EndpointAlreadyExists: {
    status: 400,
    meaning: 'The tenant already has an integration endpoint.',
  },
  EndpointNotFound: {
    status: 404,
    meaning:
      'The tenant has no integration endpoint (or the gateway host names none that is live).',
  },
  InvalidAdminMail: { status: 400, meaning: 'AdminMail is not an e-mail address.' },
  InvalidServiceName: {
    status: 400,
    meaning: 'ServiceName is not 2 to 50 letters, digits or hyphens starting with a letter.',
  },
  InvalidServiceTier: { status: 400, meaning: 'ServiceTier is not 0, 1 or 2.' },
  InvalidSubscriptionKey: {
    status: 401,
    meaning: 'A gateway call without a valid X-Subscription-Key.',
  },
  RateLimited: {
    status: 429,
    meaning: "A gateway call over the endpoint tier's requests per second.",
  },
  ServiceNameTaken: { status: 409, meaning: "Another tenant's endpoint has this service name." },
  SubscriptionKeyNotFound: {
    status: 404,
    meaning: 'There is no subscription key until the endpoint is created (Status 2).',
  },
} as const satisfies ErrorCodes;
