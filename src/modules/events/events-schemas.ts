// Wire shapes of the events module: webhook subscriptions, their deliveries and the event feed.
import { Type, type Static, type TSchema } from 'typebox';
import { documentedEnum } from '../../http/documented-only.ts';
import { PagedResult } from '../../http/paging.ts';
import { ReadOnly } from '../../http/read-only.ts';
import { EVENT_ID_PATTERN } from './event-feed.ts';
import { EVENT_PATTERNS, EVENT_RESOURCES, EVENT_TYPES } from './event-types.ts';

// Ids are bigint in the database, JSON integers up to 2^53 - 1 on the wire.
const MAX_ID = Number.MAX_SAFE_INTEGER;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const DateText = () => Type.String({ format: 'date-time' });

export const SubscriptionParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
});
export const DeliveryParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  deliveryId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});

const EventTypePattern = () =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'An event type (item.updated), a resource wildcard (item.*) or * for every event (400 UnknownEventType otherwise).',
    ...documentedEnum(EVENT_PATTERNS),
  });
const EventType = () =>
  Type.String({
    description: 'resource.action, e.g. item.updated',
    ...documentedEnum(EVENT_TYPES),
  });
const EventResource = () => Type.String({ ...documentedEnum(Object.keys(EVENT_RESOURCES)) });
const EventTypes = Type.Array(EventTypePattern(), { minItems: 1, maxItems: 50, uniqueItems: true });

export const SubscriptionBody = Type.Object(
  {
    Id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Must match the path on update.' }),
    ),
    Url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'https, or http to a host:port of WEBHOOK_ALLOWED_HOSTS (an allow-listed host on its listed ports only); no credentials, no fragment, not port 0; an IP literal must be public (IPv6 forms carrying an IPv4 address are judged by it) unless its host:port is allow-listed. Deliveries are POSTed here; redirects are not followed.',
    }),
    EventTypes,
    Description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    OwnerEmail: Type.Optional(
      Nullable(
        Type.String({
          format: 'email',
          maxLength: 256,
          description:
            'Told by e-mail when the subscription is disabled after failing; without it, the integration endpoint’s AdminMail.',
        }),
      ),
    ),
    Enabled: Type.Optional(
      Type.Boolean({
        description:
          'Default true. Enabling again starts from the events recorded from then on and forgets past failures.',
      }),
    ),
    DisabledReason: ReadOnly(Nullable(Type.String())),
    FailingSince: ReadOnly(Nullable(DateText())),
    Secret: ReadOnly(
      Nullable(Type.String()),
      'Read-only, and ignored: the secret changes only by rotation (POST …/secret).',
    ),
    PreviousSecretExpiresDate: ReadOnly(Nullable(DateText())),
    CreatedDate: ReadOnly(DateText()),
    ModifiedDate: ReadOnly(DateText()),
  },
  { additionalProperties: false, title: 'WebhookSubscriptionRequest' },
);
export type SubscriptionBody = Static<typeof SubscriptionBody>;

export const Subscription = Type.Object(
  {
    Id: Type.Integer(),
    Url: Type.String(),
    EventTypes: Type.Array(EventTypePattern()),
    Description: Nullable(Type.String()),
    OwnerEmail: Nullable(Type.String()),
    Enabled: Type.Boolean(),
    DisabledReason: Nullable(Type.String()),
    FailingSince: Nullable(DateText()),
    Secret: Nullable(
      Type.String({
        description:
          'The signing secret (Standard Webhooks, whsec_…): only in the answers of create and rotation.',
      }),
    ),
    PreviousSecretExpiresDate: Nullable(
      Type.String({
        format: 'date-time',
        description:
          'After a rotation, deliveries are signed with the previous secret too until then.',
      }),
    ),
    CreatedDate: DateText(),
    ModifiedDate: DateText(),
  },
  {
    title: 'WebhookSubscription',
    examples: [
      {
        Id: 1,
        Url: 'https://hooks.example.com/omni',
        EventTypes: ['item.*', 'brand.*'],
        Description: 'Search index updates',
        OwnerEmail: 'ops@example.com',
        Enabled: true,
        DisabledReason: null,
        FailingSince: null,
        Secret: null,
        PreviousSecretExpiresDate: null,
        CreatedDate: '2025-06-10T08:30:00.000Z',
        ModifiedDate: '2025-06-10T08:30:00.000Z',
      },
    ],
  },
);
export type Subscription = Static<typeof Subscription>;
export const SubscriptionList = PagedResult(Subscription, 'WebhookSubscriptionList');

export const DeliveryStatus = Type.Union(
  [Type.Literal('Pending'), Type.Literal('Succeeded'), Type.Literal('Failed')],
  { description: 'Pending (waiting or retrying), Succeeded (a 2xx came), Failed (given up).' },
);
export const Delivery = Type.Object(
  {
    Id: Type.Integer(),
    SubscriptionId: Type.Integer(),
    EventId: Type.String({ pattern: EVENT_ID_PATTERN }),
    EventType: EventType(),
    Resource: EventResource(),
    ResourceId: Type.String(),
    Status: DeliveryStatus,
    Attempts: Type.Integer(),
    ResponseStatusCode: Nullable(Type.Integer({ description: 'Of the last attempt.' })),
    DurationMs: Nullable(Type.Integer({ description: 'Of the last attempt.' })),
    LastError: Nullable(Type.String()),
    NextAttemptDate: Nullable(DateText()),
    LastAttemptDate: Nullable(DateText()),
    ReplayOf: Nullable(Type.Integer({ description: 'The delivery this one replays.' })),
    CreatedDate: DateText(),
  },
  { title: 'WebhookDelivery' },
);
export type Delivery = Static<typeof Delivery>;
export const DeliveryList = PagedResult(Delivery, 'WebhookDeliveryList');

export const DeliveryListQuery = Type.Object({
  skip: Type.Integer({ minimum: 0, default: 0 }),
  take: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  status: Type.Optional(DeliveryStatus),
});

export const ReplayRangeBody = Type.Object(
  {
    From: DateText(),
    To: DateText(),
  },
  { additionalProperties: false, title: 'WebhookReplayRequest' },
);
export const ReplayRangeResult = Type.Object(
  { Replayed: Type.Integer({ description: 'Deliveries queued.' }) },
  { title: 'WebhookReplayResult' },
);

export const EventsQuery = Type.Object({
  after: Type.Optional(
    Type.String({
      pattern: EVENT_ID_PATTERN,
      description: 'The Id of the last event read; absent: from the oldest event kept (30 days).',
    }),
  ),
  take: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
});
const ActorType = () =>
  Type.String({ ...documentedEnum(['App', 'Member', 'Device', 'Job', 'System']) });
const OnBehalfOf = Type.Object(
  {
    Type: ActorType(),
    Id: Type.Optional(Type.String()),
    Name: Type.Optional(Type.String()),
  },
  { description: 'The app or member a device or a job works for.' },
);
/** Who made the change, as the change history names it (docs/api.md, "Webhooks"). */
const EventActor = Type.Object(
  {
    Type: ActorType(),
    Id: Type.Optional(
      Type.String({
        description: "The app's client id, the member's id, the device's id or the job's id.",
      }),
    ),
    Name: Type.Optional(
      Type.String({ description: "The app's name, the member's username, the job's kind." }),
    ),
    OnBehalfOf: Type.Optional(OnBehalfOf),
  },
  {
    title: 'EventActor',
    description:
      'Who made the change: an app, a member (the console), a device, a job, or the system ' +
      '(a migration, maintenance, a change made before events named their actor).',
  },
);

export const Event = Type.Object(
  {
    Id: Type.String({ pattern: EVENT_ID_PATTERN, description: 'evt_…; Ids sort in feed order.' }),
    Type: EventType(),
    TenantId: Type.String({ description: 'The tenant’s name (its host’s first label).' }),
    OccurredAt: DateText(),
    Resource: EventResource(),
    ResourceId: Type.String(),
    Actor: EventActor,
    Data: Type.Unknown({
      description: 'The resource as its API shows it (its last state when deleted).',
    }),
  },
  { title: 'Event' },
);
export const EventPage = Type.Object(
  {
    Results: Type.Array(Event),
    HasMore: Type.Boolean({ description: 'More events follow: ask again after the last Id.' }),
  },
  { title: 'EventPage' },
);
