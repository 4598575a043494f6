// The change history's wire shapes (docs/api.md, "Change history"): an entry, a page of entries
// and the paging query, shared by the tenant-wide list (the history module) and every module's
// history of its resources (history-routes.ts).
import { Type } from 'typebox';

export const HISTORY_TAKE_MAX = 100;

export const ActorType = Type.Union(
  [
    Type.Literal('App'),
    Type.Literal('Member'),
    Type.Literal('Device'),
    Type.Literal('Job'),
    Type.Literal('System'),
  ],
  { description: 'App, Member, Device, Job or System.' },
);

export const Action = Type.Union(
  [
    Type.Literal('created'),
    Type.Literal('updated'),
    Type.Literal('deleted'),
    Type.Literal('restored'),
    Type.Literal('status_changed'),
  ],
  { description: 'created, updated, deleted, restored or status_changed.' },
);

const Actor = Type.Object(
  {
    Type: ActorType,
    Id: Type.Optional(Type.String({ description: "The app's client id, the member's id, …" })),
    Name: Type.Optional(Type.String({ description: "The app's name, the member's username, …" })),
    OnBehalfOf: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, description: 'A device’s app: an actor of this shape.' },
      ),
    ),
  },
  { title: 'HistoryActor' },
);

const Change = Type.Object(
  {
    Path: Type.String({
      description:
        'The field: `Title`, `Location.Latitude`, `Prices[PriceTypeId=2].NormalPrice`, ' +
        '`Tags[Id=7]` (an element by its identifying field), `Foo[3]` (by index).',
    }),
    Old: Type.Unknown({ description: 'Its value before; null when it had none.' }),
    New: Type.Unknown({ description: 'Its value after; null when it has none.' }),
  },
  { title: 'HistoryChange' },
);

const entryFields = {
  Id: Type.Integer({ description: "The entry's id." }),
  ResourceType: Type.String({ description: 'item, brand, category, tag, asset, store, …' }),
  ResourceId: Type.String(),
  Action,
  Version: Type.Integer({
    description: "The resource's version after this change (1: its first).",
  }),
  PreviousVersion: Type.Union([Type.Integer(), Type.Null()]),
  ChangedAt: Type.String({ format: 'date-time' }),
  Actor,
  RequestId: Type.Optional(Type.String()),
  ClientAddress: Type.Optional(Type.String()),
  UserAgent: Type.Optional(Type.String()),
  IdempotencyKey: Type.Optional(Type.String()),
  Operation: Type.Optional(
    Type.String({ description: 'The operationId (or job) that made the change.' }),
  ),
  RestoredFrom: Type.Optional(
    Type.Integer({ description: 'On a restore: the version it restored.' }),
  ),
  Changes: Type.Array(Change, {
    description:
      'The difference from the previous version\'s data; secrets only as the marker "changed".',
  }),
  Sequence: Type.Union([Type.Integer(), Type.Null()], {
    description: "Its place in the tenant's hash chain once sealed.",
  }),
  Hash: Type.Union([Type.String(), Type.Null()], {
    description: 'Its hash (hex SHA-256) once sealed.',
  }),
};

export const HistoryEntry = Type.Object(entryFields, { title: 'HistoryEntry' });

export const HistoryEntryWithData = Type.Object(
  {
    ...entryFields,
    Data: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
      description: 'The resource after the change as the API showed it (without secrets).',
    }),
  },
  { title: 'HistoryVersion' },
);

export const HistoryPage = Type.Object(
  {
    Results: Type.Array(HistoryEntry),
    Continuation: Type.Union([Type.String(), Type.Null()], {
      description: 'Send it back as Continuation for the next page; null on the last.',
    }),
  },
  { title: 'HistoryPage' },
);

export const Take = Type.Integer({
  minimum: 1,
  maximum: HISTORY_TAKE_MAX,
  default: 20,
  description: `Entries per page, 1..${HISTORY_TAKE_MAX} (default 20).`,
});

export const Continuation = Type.String({
  minLength: 1,
  maxLength: 512,
  description: "The previous page's Continuation, with the same filters.",
});

export const HistoryPageQuery = Type.Object(
  { Take, Continuation: Type.Optional(Continuation) },
  { additionalProperties: false },
);

export const VersionParam = Type.Integer({
  minimum: 1,
  maximum: 2_147_483_647,
  description: "The resource's version (1: its first).",
});
