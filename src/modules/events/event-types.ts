// The event types the database records (src/db/migrations/0100_event_feed.sql) and the patterns
// subscriptions take.

const CRUD = ['created', 'updated', 'deleted'];

/** Each resource and the actions its events have. */
export const EVENT_RESOURCES: Record<string, string[]> = {
  item: CRUD,
  brand: CRUD,
  category: CRUD,
  tag: CRUD,
  asset: CRUD,
  store: CRUD,
  physical_device: CRUD,
  logical_device: CRUD,
  app: CRUD,
  integration_endpoint: ['created', 'status_changed', 'deleted'],
};

export const EVENT_TYPES = Object.entries(EVENT_RESOURCES).flatMap(([resource, actions]) =>
  actions.map((action) => `${resource}.${action}`),
);

/** Every pattern a subscription takes: each event type, each `resource.*`, and `*`. */
export const EVENT_PATTERNS = [
  ...EVENT_TYPES,
  ...Object.keys(EVENT_RESOURCES).map((resource) => `${resource}.*`),
  '*',
];

/** `*`, `resource.*` or one event type. */
export function isEventTypePattern(pattern: string): boolean {
  if (pattern === '*') return true;
  const [resource, action, ...rest] = pattern.split('.');
  if (rest.length > 0 || resource === undefined || !(resource in EVENT_RESOURCES)) return false;
  return action === '*' || EVENT_RESOURCES[resource]!.includes(action ?? '');
}

/** The SQL condition "event type `type` is matched by the patterns `patterns` (text[])". */
export const matchesPatterns = (type: string, patterns: string) =>
  `(${type} = any(${patterns}) or '*' = any(${patterns}) or split_part(${type}, '.', 1) || '.*' = any(${patterns}))`;
