// The OAuth apps' calls for the Apps page, under one query key (a change invalidates the list).
import { call, client } from '../../api.ts';
import { sameName } from '../../same-name.ts';
import type { App } from '../../types.ts';

export const PAGE_SIZE = 50;
/** The apps list's largest page: the names are looked up with one call (more only past it). */
const NAMES_TAKE = 1000;

export const appKeys = {
  all: ['apps'] as const,
  page: (skip: number) => ['apps', 'page', skip] as const,
};

export const loadApps = (skip: number) =>
  call(client.GET('/management/oauth/apps', { params: { query: { skip, take: PAGE_SIZE } } }));

/** The name (trimmed) of an app of the tenant named `name`, whatever the case; else undefined. */
export async function takenName(name: string): Promise<string | undefined> {
  for (let skip = 0; ; skip += NAMES_TAKE) {
    const page = await call(
      client.GET('/management/oauth/apps', { params: { query: { skip, take: NAMES_TAKE } } }),
    );
    const found = page.Results.find((app) => sameName(app.Name, name));
    if (found) return found.Name.trim();
    if (page.Results.length < NAMES_TAKE || skip + NAMES_TAKE >= page.TotalCount) return undefined;
  }
}

export const rotateSecret = (app: App) =>
  call(
    client.POST('/management/oauth/apps/{applicationId}/secret', {
      params: { path: { applicationId: app.ApplicationId } },
    }),
  );

export const deleteApp = (app: App) =>
  call(
    client.DELETE('/management/oauth/apps/{applicationId}', {
      params: { path: { applicationId: app.ApplicationId } },
    }),
  );
