// @omnichannel/management-client: the typed client of the Omni-Channel Management API.
export { ACCEPT, createManagementClient } from './client.ts';
export type { ManagementClient, ManagementClientOptions } from './client.ts';
export type { Authentication, ClientCredentials } from './auth.ts';
export { ApiError, asErrorBody, OAuthError, ok } from './errors.ts';
export type { CallResult, DataOf, ErrorBody, OAuthErrorBody } from './errors.ts';
export { pages } from './paging.ts';
export { ifChanged, withEtag } from './versions.ts';
export type { Versioned } from './versions.ts';
export type { ListPage, PageRange } from './paging.ts';
export { retryAfterMs } from './retry.ts';
export type { RetryOptions } from './retry.ts';
export type { components, operations, paths } from './generated/openapi.ts';
