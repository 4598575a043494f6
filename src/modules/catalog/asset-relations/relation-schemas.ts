import { Type, type Static } from 'typebox';
import { ReadOnly } from '../../../http/read-only.ts';
import { AssetId as AssetIdSchema, Id } from '../common-schemas.ts';

const AssetId = AssetIdSchema();

export const RelationParams = Type.Object({ id: Id() });

export const AddRelationQuery = Type.Object({
  assetId: AssetId,
  isDefault: Type.Boolean({
    default: false,
    description: 'Make it the default of its kind (the previous default stops being one).',
  }),
});

export const RemoveRelationQuery = Type.Object({ assetId: AssetId });

export const RelationBody = Type.Object(
  {
    AssetId,
    RelatedId: Type.Optional(
      Type.Integer({ description: 'Ignored when absent; must match the path when sent.' }),
    ),
    IsDefault: Type.Boolean(),
    // What the list shows of the asset, so that a listed relation can be sent back.
    AssetUrl: ReadOnly(Type.String()),
    MimeType: ReadOnly(Type.String()),
    FileName: ReadOnly(Type.String()),
  },
  { additionalProperties: false, title: 'AssetRelationRequest' },
);
export type RelationBody = Static<typeof RelationBody>;

export const Relation = Type.Object(
  { AssetId: Type.Integer(), RelatedId: Type.Integer(), IsDefault: Type.Boolean() },
  { title: 'AssetRelation' },
);
export type RelationJson = Static<typeof Relation>;

export const RelatedAsset = Type.Object(
  {
    AssetId: Type.Integer(),
    AssetUrl: Type.String(),
    MimeType: Type.String(),
    FileName: Type.String(),
    IsDefault: Type.Boolean(),
  },
  { title: 'RelatedAsset' },
);
export type RelatedAssetJson = Static<typeof RelatedAsset>;
export const RelatedAssetList = Type.Array(RelatedAsset, { title: 'RelatedAssetList' });
