// Environment → typed, validated configuration (contract §6). A bad value stops the process
// with one line naming the variable, so operators never chase a half-started server.
//
// Each part reads its own variables: the server's and the shared layers' (config/server-settings.ts)
// and each module's (src/modules/<name>/<name>-settings.ts), all with the readers of
// config/env-readers.ts. This file composes them; import the configuration from here.
import type { Env } from './config/env-readers.ts';
import { serverSettings, type ServerSettings } from './config/server-settings.ts';
import { catalogSettings, type CatalogSettings } from './modules/catalog/catalog-settings.ts';
import { eventsSettings, type EventsSettings } from './modules/events/events-settings.ts';
import { historySettings, type HistorySettings } from './modules/history/history-settings.ts';
import {
  integrationSettings,
  type IntegrationSettings,
} from './modules/integration/integration-settings.ts';
import { membersSettings, type MembersSettings } from './modules/members/members-settings.ts';
import {
  notificationsSettings,
  type NotificationsSettings,
} from './modules/notifications/notifications-settings.ts';
import { oauthSettings, type OAuthSettings } from './modules/oauth/oauth-settings.ts';
import { sampleSettings, type SampleSettings } from './modules/sample/sample-settings.ts';
import { storageSettings, type StorageSettings } from './modules/storage/storage-settings.ts';

export { ConfigError, withoutPassword } from './config/config-error.ts';
export { TENANT_NAME_PATTERN, type LogLevel } from './config/server-settings.ts';
export type { S3Settings } from './modules/storage/storage-settings.ts';

export type Config = ServerSettings &
  OAuthSettings &
  MembersSettings &
  IntegrationSettings &
  NotificationsSettings &
  CatalogSettings &
  StorageSettings &
  EventsSettings &
  HistorySettings &
  SampleSettings;

export function loadConfig(env: Env = process.env): Config {
  const server = serverSettings(env);
  return {
    ...server,
    ...oauthSettings(env),
    ...membersSettings(env),
    ...integrationSettings(env, server),
    ...notificationsSettings(env, server),
    ...catalogSettings(env),
    ...storageSettings(env),
    ...eventsSettings(env),
    ...historySettings(env),
    ...sampleSettings(env),
  };
}
