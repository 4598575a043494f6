// The integration module's error codes (docs/api.md, "Integration endpoint").
import { DomainError, invalid } from '../../domain/domain-error.ts';

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
