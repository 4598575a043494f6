// Optimistic concurrency as a service sees it: the caller says which version of a resource it
// read, and a write checks that against the version it is about to change.

/**
 * Checks the current version of what a service is about to change against the one the caller
 * read; throws when they differ (the route gives it, built from the request's If-Match).
 */
export type VersionCheck = (version: number) => void;
