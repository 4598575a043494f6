// The sample catalog: a small home and garden retailer, made the same for every tenant and every
// run, so that seeding again finds what it made by the same keys. Item n (1-based) is always the
// same record: its family, title, variant, prices, attributes and tags follow from n alone.
//
// The words are chosen to show search off: every lantern is a "lantern" (the typo "lanturn"
// finds them), about half of the descriptions say "handmade" (a one-word query with many hits),
// and brands, categories, colours, materials and prices make facets worth looking at.

import {
  SAMPLE_ATTRIBUTES,
  SAMPLE_BRANDS,
  SAMPLE_COLOURS,
  SAMPLE_LEAVES,
  SAMPLE_MATERIALS,
  SAMPLE_PRICE_TYPES,
  SAMPLE_SIZES,
  SAMPLE_STYLES,
  SAMPLE_TAGS,
  SAMPLE_TREE,
  type SampleShape,
} from './sample-assortment.ts';

/** A number from 0 to 1 that depends on n and salt alone (a few rounds of an integer mix). */
export function sampleRandom(n: number, salt: number): number {
  let x = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return ((x ^ (x >>> 16)) >>> 0) / 4_294_967_296;
}

const pick = <T>(list: readonly T[], n: number, salt: number): T =>
  list[Math.floor(sampleRandom(n, salt) * list.length)]!;

/** A family of items: one product in one to three variants (sizes or colours). */
interface SampleFamily {
  number: number;
  title: string;
  leafIndex: number;
  brand: string;
  material: string;
  variantKind: 'size' | 'colour' | 'none';
  variants: number;
}

function familyOf(number: number): SampleFamily {
  const leafIndex = (number - 1) % SAMPLE_LEAVES.length;
  const { leaf: l } = SAMPLE_LEAVES[leafIndex]!;
  const noun = pick(l.nouns, number, 1);
  const material = pick(SAMPLE_MATERIALS, number, 2);
  const style = pick(SAMPLE_STYLES, number, 3);
  const roll = sampleRandom(number, 4);
  const variantKind = roll < 0.35 ? 'size' : roll < 0.7 ? 'colour' : 'none';
  return {
    number,
    title: `${style} ${material.toLowerCase()} ${noun.toLowerCase()}`,
    leafIndex,
    brand: pick(SAMPLE_BRANDS, number, 5),
    material,
    variantKind,
    variants: variantKind === 'none' ? 1 : 2 + Math.floor(sampleRandom(number, 6) * 2),
  };
}

/** Where item n sits: its family and its place in the family (0: the default item). */
function placeOf(n: number): { family: SampleFamily; variant: number } {
  // Families are walked from the first: a family's size depends on its number alone, so the walk
  // is the same every time (a few milliseconds for 100,000 items, once per batch).
  let first = 1;
  for (let number = 1; ; number++) {
    const family = familyOf(number);
    if (n < first + family.variants) return { family, variant: n - first };
    first += family.variants;
  }
}

export interface SampleImage {
  shape: SampleShape;
  colour: (typeof SAMPLE_COLOURS)[number];
  /** The asset's file name, which names its drawing: one asset per shape and colour. */
  fileName: string;
}

/** An import record of item n, with the key of the image it shows (an asset made before). */
export interface SampleItem {
  sku: string;
  image: SampleImage;
  record: Record<string, unknown>;
}

const cents = (value: number) => Math.round(value * 100) / 100;

export const sampleSku = (n: number) => `SAMPLE-${String(n).padStart(6, '0')}`;

/** The import records of items from..to (inclusive), in order. */
export function* sampleItems(from: number, to: number): Generator<SampleItem> {
  let { family, variant } = placeOf(from);
  let n = from;
  while (n <= to) {
    yield sampleItem(n, family, variant);
    n++;
    variant++;
    if (variant >= family.variants) {
      family = familyOf(family.number + 1);
      variant = 0;
    }
  }
}

function sampleItem(n: number, family: SampleFamily, variant: number): SampleItem {
  const { path, leaf: l } = SAMPLE_LEAVES[family.leafIndex]!;
  const colourIndex =
    family.variantKind === 'colour'
      ? (Math.floor(sampleRandom(family.number, 7) * SAMPLE_COLOURS.length) + variant) %
        SAMPLE_COLOURS.length
      : Math.floor(sampleRandom(family.number, 7) * SAMPLE_COLOURS.length);
  const colour = SAMPLE_COLOURS[colourIndex]!;
  const size = family.variantKind === 'size' ? SAMPLE_SIZES[variant]! : undefined;
  const suffix =
    family.variantKind === 'size'
      ? `, ${size!.toLowerCase()}`
      : family.variantKind === 'colour'
        ? `, ${colour.name.toLowerCase()}`
        : '';
  const title = `${family.title[0]!.toUpperCase()}${family.title.slice(1)}${suffix}`;
  const sizeFactor = size === 'Large' ? 1.6 : size === 'Medium' ? 1.25 : 1;
  const price = cents(
    Math.round(l.price * sizeFactor * (0.7 + sampleRandom(family.number, 8) * 0.8)) - 0.01,
  );
  const onSale = sampleRandom(n, 9) < 0.2;
  const handmade = sampleRandom(family.number, 10) < 0.5;
  const height = Math.round((10 + sampleRandom(family.number, 11) * 80) * sizeFactor);
  const tags = [
    ...(sampleRandom(family.number, 12) < 0.15 ? ['New'] : []),
    ...(sampleRandom(family.number, 13) < 0.1 ? ['Bestseller'] : []),
    ...(family.material === 'Bamboo' || family.material === 'Linen' ? ['Eco'] : []),
    ...(l.price < 30 && sampleRandom(family.number, 14) < 0.3 ? ['Gift idea'] : []),
    ...(onSale ? ['Sale'] : []),
  ];
  const noun = title.split(',')[0]!.toLowerCase();
  return {
    sku: sampleSku(n),
    image: {
      shape: l.shape,
      colour,
      fileName: `sample-${l.shape}-${colour.name.toLowerCase()}.svg`,
    },
    record: {
      SKU: sampleSku(n),
      Title: title,
      Name: title,
      Model: `${family.brand.slice(0, 3).toUpperCase()}-${1000 + family.number}`,
      ShortDescription: `A ${noun} in ${colour.name.toLowerCase()} by ${family.brand}.`,
      LongDescription:
        `${handmade ? 'Handmade' : 'Made'} from ${family.material.toLowerCase()} ` +
        `${l.outdoor ? 'for the garden, the balcony or the terrace' : 'for the home'}. ` +
        `Part of the ${l.name.toLowerCase()} range by ${family.brand}.`,
      InStock: sampleRandom(n, 15) > 0.08,
      Rating: Math.round((3 + sampleRandom(n, 16) * 2) * 10) / 10,
      CategoryPath: path,
      Brand: family.brand,
      GroupKey: `sample-family-${family.number}`,
      Prices: [
        {
          PriceTypeSymbol: 'RETAIL',
          NormalPrice: price,
          ...(onSale ? { DiscountPrice: cents(Math.round(price * 0.8) - 0.01) } : {}),
        },
        { PriceTypeSymbol: 'MEMBER', NormalPrice: cents(Math.round(price * 0.9) - 0.01) },
      ],
      DynamicAttributes: [
        { TypeName: SAMPLE_ATTRIBUTES.colour, Value: colour.name },
        ...(size ? [{ TypeName: SAMPLE_ATTRIBUTES.size, Value: size }] : []),
        { TypeName: SAMPLE_ATTRIBUTES.material, Value: family.material },
        { TypeName: SAMPLE_ATTRIBUTES.height, Value: String(height) },
        { TypeName: SAMPLE_ATTRIBUTES.frost, Value: l.outdoor ? 'Yes' : 'No' },
      ],
      Tags: tags.map((name) => ({ Name: name })),
    },
  };
}

/**
 * The last item number of the batch that starts at `from` and holds about `size` items, ending at
 * the end of a family (a variant group is made by one import job), and at `last` at the latest.
 */
export function batchEnd(from: number, size: number, last: number): number {
  const place = placeOf(from);
  let family = place.family;
  let end = from + (family.variants - 1 - place.variant);
  while (end < Math.min(last, from + size - 1)) {
    family = familyOf(family.number + 1);
    end += family.variants;
  }
  return Math.min(end, last);
}

/** The structure records of the sample (categories, brands, price types, attribute types, tags). */
export function sampleStructureRecords(): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const root of SAMPLE_TREE) {
    records.push({
      RecordType: 'Category',
      CategoryPath: [root.name],
      ShortDescription: root.description,
    });
    for (const child of root.children) {
      records.push({
        RecordType: 'Category',
        CategoryPath: [root.name, child.name],
        ShortDescription: child.description,
      });
      for (const l of child.leaves)
        records.push({
          RecordType: 'Category',
          CategoryPath: [root.name, child.name, l.name],
          ShortDescription: `${l.nouns.join(', ')} and more.`,
        });
    }
  }
  for (const brand of SAMPLE_BRANDS) records.push({ RecordType: 'Brand', Brand: brand });
  for (const { symbol, description } of SAMPLE_PRICE_TYPES)
    records.push({ RecordType: 'PriceType', PriceTypeSymbol: symbol, Description: description });
  for (const name of Object.values(SAMPLE_ATTRIBUTES))
    records.push({ RecordType: 'AttributeType', TypeName: name });
  for (const tag of SAMPLE_TAGS)
    records.push({ RecordType: 'Tag', Tag: tag.name, Description: tag.description });
  return records;
}
