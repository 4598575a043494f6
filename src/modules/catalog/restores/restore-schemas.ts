import { Type, type Static } from 'typebox';
import { Id } from '../common-schemas.ts';

export const RestoreParams = Type.Object({
  id: Id(),
  version: Type.Integer({
    minimum: 1,
    maximum: 2_147_483_647,
    description: 'The version of its history to restore (1 is the first).',
  }),
});

export const RestoreBody = Type.Object(
  {
    ExpectedVersion: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2_147_483_647,
        description:
          "The resource's latest version as the caller read its history: 409 HistoryConflict " +
          'when a later change came since.',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'RestoreRequest',
    description: 'Optional: a restore without a body restores whatever the latest version is.',
  },
);
export type RestoreBody = Static<typeof RestoreBody>;
