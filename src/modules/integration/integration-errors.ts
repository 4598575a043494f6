// The integration module's error codes (docs/api.md, "Integration endpoint").
import { ApiError, badRequest } from '../../http/errors.ts';

export const integrationErrors = {
  invalidServiceTier: () =>
    badRequest(
      'InvalidServiceTier',
      'ServiceTier must be 0 (Developer), 1 (Standard) or 2 (Premium).',
    ),
  invalidServiceName: () =>
    badRequest(
      'InvalidServiceName',
      'ServiceName must be 2 to 50 letters, digits or hyphens, start with a letter and not end with a hyphen.',
    ),
  invalidAdminMail: () =>
    badRequest('InvalidAdminMail', 'AdminMail must be a valid e-mail address.'),
  endpointAlreadyExists: () =>
    badRequest(
      'EndpointAlreadyExists',
      'This tenant already has an integration endpoint; delete it first.',
    ),
  endpointNotFound: () =>
    new ApiError(404, 'EndpointNotFound', 'This tenant has no integration endpoint.'),
  keyNotReady: () =>
    new ApiError(
      404,
      'SubscriptionKeyNotFound',
      'There is no subscription key until the integration endpoint is created (Status 2).',
    ),
  serviceNameTaken: (name: string) =>
    new ApiError(
      409,
      'ServiceNameTaken',
      `The service name "${name}" is taken; choose another one.`,
    ),
  noLiveEndpoint: (host: string) =>
    new ApiError(404, 'EndpointNotFound', `No integration endpoint is live at ${host}.`),
  invalidSubscriptionKey: () =>
    new ApiError(
      401,
      'InvalidSubscriptionKey',
      'A valid X-Subscription-Key header is required to call this gateway.',
    ),
  rateLimited: (limit: number, resetSeconds: number) =>
    new ApiError(429, 'RateLimited', `This endpoint's tier allows ${limit} requests per second.`, {
      headers: { 'Retry-After': String(resetSeconds) },
    }),
};
