// The catalog's error codes (docs/api.md, "Catalog"): each one a factory, so that a code is
// written once and the services say which rule was broken, not how it is spelled on the wire.
import {
  DomainError,
  conflict,
  invalid,
  invalidField,
  notFound,
} from '../../domain/domain-error.ts';
import type { ErrorCodes } from '../../domain/error-code-list.ts';

export const catalogErrors = {
  itemNotFound: (id: number) => notFound(`Item ${id}`),
  brandNotFound: (id: number) => notFound(`Brand ${id}`),
  tagNotFound: (id: number) => notFound(`Tag ${id}`),
  categoryNotFound: (id: number) => notFound(`Category ${id}`),
  priceTypeNotFound: (id: number) => notFound(`Price type ${id}`),
  attributeTypeNotFound: (id: number) => notFound(`Dynamic attribute type ${id}`),
  metadataNotFound: (categoryId: number, key: string) =>
    notFound(`Metadata "${key}" of category ${categoryId}`),
  itemOrTagNotFound: (itemId: number, tagId: number) => notFound(`Item ${itemId} or tag ${tagId}`),
  mappingNotFound: (itemId: number, tagId: number) =>
    notFound(`A mapping of item ${itemId} to tag ${tagId}`),

  /** A body names a row that does not exist: 400 on the field (contract §5.3, referential rules). */
  unknownReference: (field: string, what: string) => invalidField(field, `${what} does not exist`),
  unknownCategory: (id: number) => invalid('UnknownCategory', `Category ${id} does not exist.`),
  itemIdRequired: () =>
    invalid('IdRequired', 'Give the item Id in the body, or use /private/catalog/item/{id}.'),
  oneMappingFilter: () =>
    new DomainError('invalid', 'ValidationFailed', 'Give exactly one of itemId and tagId.', {
      errors: [{ Field: 'itemId', Message: 'exactly one of itemId and tagId is required' }],
    }),

  duplicateSku: () => conflict('DuplicateSku', 'Another item of this tenant has the same SKU.'),
  duplicateBrandName: (name: string) =>
    conflict('DuplicateBrandName', `A brand named "${name}" already exists.`),
  duplicateTagName: (name: string) =>
    conflict('DuplicateTagName', `A tag named "${name}" already exists.`),
  duplicateAttributeType: (description: string) =>
    conflict('DuplicateAttributeType', `A dynamic attribute type "${description}" already exists.`),
  duplicatePriceType: (symbol: string) =>
    conflict('DuplicatePriceType', `A price type with the symbol "${symbol}" already exists.`),
  /** `parentName` null: among the top-level categories. */
  duplicateCategoryName: (name: string, parentName: string | null) =>
    conflict(
      'DuplicateCategoryName',
      parentName === null
        ? `A top-level category named "${name}" already exists.`
        : `Category "${parentName}" already has a subcategory named "${name}".`,
    ),
  duplicateMetadataKey: (categoryId: number, key: string) =>
    conflict('DuplicateMetadataKey', `Category ${categoryId} already has metadata "${key}".`),
  duplicateItemTagMapping: (itemId: number, tagId: number) =>
    conflict('DuplicateItemTagMapping', `Item ${itemId} already has tag ${tagId}.`),

  brandInUse: (id: number) =>
    conflict('BrandInUse', `Brand ${id} is used by items; change those items first.`),
  tagInUse: (id: number) =>
    conflict('TagInUse', `Tag ${id} is mapped to items; remove those mappings first.`),
  attributeTypeInUse: (id: number) =>
    conflict('AttributeTypeInUse', `Dynamic attribute type ${id} is used by items.`),
  priceTypeInUse: (id: number) =>
    conflict(
      'PriceTypeInUse',
      `Price type ${id} is used by item prices; remove those prices first.`,
    ),
  categoryHasChildren: (name: string, count: number) =>
    conflict(
      'CategoryHasChildren',
      `The category “${name}” has ${count === 1 ? '1 subcategory' : `${count} subcategories`}; move or delete ${count === 1 ? 'it' : 'them'} first.`,
    ),
  categoryHasItems: (name: string, count: number) =>
    conflict(
      'CategoryHasItems',
      `The category “${name}” has ${count === 1 ? '1 item' : `${count} items`}; move ${count === 1 ? 'it' : 'them'} to another category first.`,
    ),
  categoryInUse: (id: number) =>
    conflict('CategoryInUse', `Category ${id} gained items or subcategories meanwhile.`),
  categoryCycle: (id: number, parentId: number) =>
    conflict(
      'CategoryCycle',
      `Category ${parentId} is category ${id} or one of its subcategories; a category cannot be its own ancestor.`,
    ),

  notADefaultItem: (id: number) =>
    conflict('NotADefaultItem', `Item ${id} is not the default item of a variant group.`),
  isVariantOf: (id: number, defaultItemId: number | null) =>
    conflict(
      'NotADefaultItem',
      `Item ${id} is a variant of item ${defaultItemId}; group under that item instead.`,
    ),
  isDefaultItem: (id: number) =>
    conflict(
      'IsDefaultItem',
      `Item ${id} is the default item of a variant group; ungroup it first.`,
    ),
  alreadyGrouped: (id: number, defaultItemId: number | null) =>
    conflict(
      'AlreadyGrouped',
      `Item ${id} is a variant of item ${defaultItemId}; use move to change its group.`,
    ),
  notAVariant: (id: number) =>
    conflict('NotAVariant', `Item ${id} is not in a variant group; use group instead.`),

  // Asset relations (contract §5.3).
  assetNotFound: (id: number) => notFound(`Asset ${id}`),
  assetKindMismatch: (family: string, kind: string) =>
    conflict('AssetTypeMismatch', `An asset of type ${family} cannot be related as ${kind}.`),
  duplicateRelation: (assetId: number) =>
    conflict('DuplicateAssetRelation', `Asset ${assetId} is already related to this entity.`),
  relationNotFound: (assetId: number) => notFound(`The relation with asset ${assetId}`),

  // Restoring an item, a brand or a category to an earlier version (docs/api.md, "Restoring").
  historyVersionNotFound: (what: string, version: number) =>
    new DomainError(
      'not-found',
      'HistoryVersionNotFound',
      `${what} has no version ${version} in its history.`,
    ),
  historyConflict: (expected: number, latest: number | undefined) =>
    conflict(
      'HistoryConflict',
      `The latest version is ${latest ?? 'none'}, not ${expected}: it changed since; read its history again.`,
    ),
  deletedVersion: (version: number) =>
    conflict(
      'HistoryVersionNotRestorable',
      `Version ${version} is a delete; restore the version before it instead.`,
    ),
  /** `field`: where the version names it ("BrandId", "Prices[PriceTypeId=2]"). */
  restoreReferenceMissing: (field: string, what: string) =>
    new DomainError(
      'conflict',
      'RestoreReferenceMissing',
      `${field}: ${what} no longer exists; the version cannot be restored as it was.`,
      { errors: [{ Field: field, Message: `${what} no longer exists` }] },
    ),
};

/** The codes the catalog module answers besides the shared ones (src/http/error-codes.ts). */
export const catalogErrorCodes = {
  AlreadyGrouped: {
    status: 409,
    meaning: 'The item is already a variant of another item; move it instead.',
  },
  AmbiguousImportSource: {
    status: 400,
    meaning: 'An import was given both a file body and an assetId.',
  },
  AssetTypeMismatch: {
    status: 409,
    meaning: 'The asset is not of the kind the relation takes (an image as a video, …).',
  },
  AttributeTypeInUse: { status: 409, meaning: 'The dynamic attribute type is used by items.' },
  BrandInUse: { status: 409, meaning: 'The brand is used by items.' },
  CategoryCycle: {
    status: 409,
    meaning: 'The new parent is the category itself or one of its subcategories.',
  },
  CategoryHasChildren: {
    status: 409,
    meaning: 'The category has subcategories; move or delete them first.',
  },
  CategoryHasItems: { status: 409, meaning: 'The category has items; move them first.' },
  CategoryInUse: {
    status: 409,
    meaning: 'The category gained items or subcategories while it was being deleted.',
  },
  CategoryTooDeep: { status: 400, meaning: 'The category would be more than 10 levels deep.' },
  DuplicateAssetRelation: {
    status: 409,
    meaning: 'The asset is already related to this item, brand or category.',
  },
  DuplicateAttributeType: {
    status: 409,
    meaning: 'A dynamic attribute type with this description exists.',
  },
  DuplicateBrandName: { status: 409, meaning: 'A brand with this name exists.' },
  DuplicateCategoryName: {
    status: 409,
    meaning: 'A category with this name exists under the same parent.',
  },
  DuplicateItemTagMapping: { status: 409, meaning: 'The item already has this tag.' },
  DuplicateMetadataKey: {
    status: 409,
    meaning: 'The category already has metadata with this key.',
  },
  DuplicatePriceType: { status: 409, meaning: 'A price type with this symbol exists.' },
  DuplicateSku: { status: 409, meaning: 'Another item of the tenant has this SKU.' },
  DuplicateTagName: { status: 409, meaning: 'A tag with this name exists.' },
  HistoryConflict: {
    status: 409,
    meaning: "A restore's ExpectedVersion is not the resource's latest version (it changed since).",
  },
  HistoryVersionNotRestorable: {
    status: 409,
    meaning: 'The version asked for is a delete, which a restore cannot bring back.',
  },
  IdRequired: {
    status: 400,
    meaning: 'The item update names no item: give Id in the body or use the path with the id.',
  },
  ImportEnded: { status: 409, meaning: 'The import has already ended and cannot be cancelled.' },
  ImportFormatRequired: {
    status: 400,
    meaning: "The import body's content type does not say JSONL or CSV: give format.",
  },
  IsDefaultItem: {
    status: 409,
    meaning: 'The item is the default item of a variant group; ungroup it first.',
  },
  MissingImportFile: {
    status: 415,
    meaning: 'An import without a file body (of a type it takes) and without assetId.',
  },
  NotADefaultItem: { status: 409, meaning: 'The item is not the default item of a variant group.' },
  NotAVariant: { status: 409, meaning: 'The item is in no variant group; group it instead.' },
  PriceTypeInUse: { status: 409, meaning: 'The price type is used by item prices.' },
  RestoreReferenceMissing: {
    status: 409,
    meaning:
      'The version to restore names a brand, category, price type, attribute type or tag that no longer exists.',
  },
  TagInUse: { status: 409, meaning: 'The tag is mapped to items.' },
  UnknownCategory: { status: 400, meaning: 'The category named does not exist.' },
} as const satisfies ErrorCodes;
