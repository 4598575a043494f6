import { Type } from 'typebox';

/**
 * Ids are bigint in the database and JSON integers on the wire: at most 2^53 - 1, the
 * largest integer every JSON client reads exactly (docs/api.md, "Ids").
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
export const Id = (description?: string) =>
  Type.Integer({ minimum: 1, maximum: MAX_ID, ...(description ? { description } : {}) });
export const IdParams = Type.Object({ id: Id() });
/** An asset id (the storage module's): 64-bit as every other id. */
export const AssetId = Id;

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
