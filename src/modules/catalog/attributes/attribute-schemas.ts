import { Type, type Static } from 'typebox';
import { PagedResult } from '../../../http/paging.ts';
import { Id, ShortText } from '../common-schemas.ts';

export const AttributeTypeBody = Type.Object(
  {
    Id: Type.Optional(
      Type.Integer({ description: 'Ignored on create; must match the path on update.' }),
    ),
    Description: ShortText(),
  },
  { additionalProperties: false, title: 'DynamicAttributeTypeRequest' },
);
export type AttributeTypeBody = Static<typeof AttributeTypeBody>;

export const AttributeTypePatch = Type.Object(
  { Id: Type.Optional(Type.Integer()), Description: Type.Optional(ShortText()) },
  { additionalProperties: false, title: 'DynamicAttributeTypePatch' },
);
export type AttributeTypePatch = Static<typeof AttributeTypePatch>;

export const AttributeType = Type.Object(
  { Id: Type.Integer(), Description: Type.String() },
  { title: 'DynamicAttributeType' },
);
export type AttributeType = Static<typeof AttributeType>;
export const AttributeTypeList = PagedResult(AttributeType, 'DynamicAttributeTypeList');

/** An item's value of a dynamic attribute type. */
export const DynamicAttribute = Type.Object(
  {
    TypeId: Type.Integer(),
    TypeValueId: Type.Integer(),
    Value: Type.String(),
    TypeName: Type.String(),
  },
  { title: 'DynamicAttribute' },
);
export type DynamicAttribute = Static<typeof DynamicAttribute>;

/** What a client sends to set an item's attribute: a known value by id, or a value by text. */
export const DynamicAttributeInput = Type.Object(
  {
    TypeId: Id(),
    TypeValueId: Type.Optional(Type.Union([Id(), Type.Null()])),
    Value: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 256 }), Type.Null()])),
    TypeName: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Ignored (read-only).',
      }),
    ),
  },
  { additionalProperties: false, title: 'DynamicAttributeInput' },
);
export type DynamicAttributeInput = Static<typeof DynamicAttributeInput>;
