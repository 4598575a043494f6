// The catalog's error codes (docs/api.md, "Catalog"): each one a factory, so that a code is
// written once and the services say which rule was broken, not how it is spelled on the wire.
import {
  DomainError,
  conflict,
  invalid,
  invalidField,
  notFound,
} from '../../domain/domain-error.ts';

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
};
