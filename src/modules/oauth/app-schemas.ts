import { Type, type Static } from 'typebox';
import { PagedResult } from '../../http/paging.ts';
import { ReadOnly } from '../../http/read-only.ts';

export const AppBody = Type.Object(
  {
    ApplicationId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: "Ignored on create; on update it must be the path's (else 400 IdMismatch).",
      }),
    ),
    Name: Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' }),
    // Null first: with the server's type coercion (ajv coerceTypes) a String branch tried first
    // would turn null into "" before the Null branch is reached.
    Description: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 500 })])),
    ApplicationTypeId: Type.Integer({
      minimum: 1,
      maximum: 4,
      description:
        '1 Consumer (public), 2 Private (public private), 3 Management (public private management), 4 Device (public; identity tokens).',
    }),
    ApplicationSecret: ReadOnly(
      Type.Union([Type.String(), Type.Null()]),
      'Read-only, and ignored: the secret changes only by rotation (POST …/secret).',
    ),
    IsPredefined: ReadOnly(Type.Boolean()),
    ApplicationTypeDescription: ReadOnly(Type.String()),
    CreatedDate: ReadOnly(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false, title: 'AppRequest' },
);
export type AppBody = Static<typeof AppBody>;

export const App = Type.Object(
  {
    ApplicationId: Type.String({ format: 'uuid' }),
    ApplicationSecret: Type.Union([Type.String(), Type.Null()], {
      description: 'Only in the answers of create and secret rotation; null otherwise.',
    }),
    Name: Type.String(),
    Description: Type.Union([Type.String(), Type.Null()]),
    IsPredefined: Type.Boolean(),
    ApplicationTypeId: Type.Integer(),
    ApplicationTypeDescription: Type.String(),
    CreatedDate: Type.String({ format: 'date-time' }),
  },
  {
    title: 'App',
    examples: [
      {
        ApplicationId: '452236f2-4172-4b8c-aa1b-be7d93b47f53',
        ApplicationSecret: null,
        Name: 'Store kiosk',
        Description: 'The kiosks in every store',
        IsPredefined: false,
        ApplicationTypeId: 1,
        ApplicationTypeDescription: 'Consumer',
        CreatedDate: '2025-06-10T08:30:00.000Z',
      },
    ],
  },
);
export type App = Static<typeof App>;

export const AppList = PagedResult(App, 'AppList');

export const AppIdParams = Type.Object({ applicationId: Type.String({ format: 'uuid' }) });
