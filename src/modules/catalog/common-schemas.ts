import { Type } from 'typebox';

export const MAX_ID = 2_147_483_647;
export const Id = (description?: string) =>
  Type.Integer({ minimum: 1, maximum: MAX_ID, ...(description ? { description } : {}) });
export const IdParams = Type.Object({ id: Id() });

/** A short text: 1..256 characters (contract §4 limits). */
export const ShortText = (options: { description?: string } = {}) =>
  Type.String({ minLength: 1, maxLength: 256, ...options });
/** A description: up to 4000 characters. */
export const LongText = () => Type.String({ maxLength: 4000 });
export const Nullable = <
  T extends
    | ReturnType<typeof Type.String>
    | ReturnType<typeof Type.Integer>
    | ReturnType<typeof Type.Number>
    | ReturnType<typeof Type.Boolean>,
>(
  schema: T,
) => Type.Union([schema, Type.Null()]);

export const MetadataPair = Type.Object(
  { Key: ShortText(), Value: Type.String({ maxLength: 4000 }) },
  { title: 'MetadataPair' },
);
