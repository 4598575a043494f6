// What the sample shop sells: its category tree with the products of each leaf, its brands,
// price types, attribute types, tags, colours, materials and styles. sample-catalog.ts makes the
// items of them.

/** A leaf category's products and the drawing of their images. */
export interface SampleLeaf {
  name: string;
  nouns: readonly string[];
  shape: SampleShape;
  /** A typical price of its products, in the shop's currency. */
  price: number;
  /** Whether its products are for outdoors (the "Frost resistant" attribute). */
  outdoor: boolean;
}

export type SampleShape =
  | 'plant'
  | 'pot'
  | 'tool'
  | 'can'
  | 'lantern'
  | 'lamp'
  | 'cushion'
  | 'throw'
  | 'bowl'
  | 'jar'
  | 'chair'
  | 'table'
  | 'candle'
  | 'birdhouse';

const leaf = (
  name: string,
  shape: SampleShape,
  price: number,
  outdoor: boolean,
  nouns: string[],
): SampleLeaf => ({ name, nouns, shape, price, outdoor });

/** The category tree, three levels deep: roots, their children, and the leaves items are in. */
export const SAMPLE_TREE: readonly {
  name: string;
  description: string;
  children: readonly { name: string; description: string; leaves: readonly SampleLeaf[] }[];
}[] = [
  {
    name: 'Garden',
    description: 'Plants, pots and the tools to keep them.',
    children: [
      {
        name: 'Plants',
        description: 'Green things, indoors and out.',
        leaves: [
          leaf('Houseplants', 'plant', 24, false, [
            'Monstera',
            'Fiddle leaf fig',
            'Snake plant',
            'Pothos',
            'Peace lily',
          ]),
          leaf('Outdoor plants', 'plant', 18, true, [
            'Lavender',
            'Rosemary',
            'Hydrangea',
            'Boxwood',
          ]),
        ],
      },
      {
        name: 'Pots and planters',
        description: 'Somewhere for every plant to live.',
        leaves: [
          leaf('Ceramic pots', 'pot', 22, false, ['Plant pot', 'Planter bowl', 'Herb pot']),
          leaf('Hanging planters', 'pot', 28, true, [
            'Hanging planter',
            'Wall planter',
            'Macrame hanger',
          ]),
        ],
      },
      {
        name: 'Tools and watering',
        description: 'For the work a garden asks.',
        leaves: [
          leaf('Hand tools', 'tool', 16, true, [
            'Trowel',
            'Pruning shears',
            'Hand fork',
            'Weeding knife',
          ]),
          leaf('Watering', 'can', 26, true, ['Watering can', 'Plant mister', 'Hose nozzle']),
        ],
      },
    ],
  },
  {
    name: 'Home',
    description: 'Light, warmth and the table.',
    children: [
      {
        name: 'Lighting',
        description: 'Lamps and lanterns for long evenings.',
        leaves: [
          leaf('Lanterns', 'lantern', 34, true, [
            'Lantern',
            'Storm lantern',
            'Candle lantern',
            'Solar lantern',
          ]),
          leaf('Lamps', 'lamp', 59, false, [
            'Table lamp',
            'Floor lamp',
            'Desk lamp',
            'Pendant lamp',
          ]),
        ],
      },
      {
        name: 'Textiles',
        description: 'Soft things for sofas and beds.',
        leaves: [
          leaf('Cushions', 'cushion', 19, false, ['Cushion', 'Floor cushion', 'Seat pad']),
          leaf('Throws', 'throw', 39, false, ['Throw', 'Blanket', 'Picnic blanket']),
        ],
      },
      {
        name: 'Kitchen',
        description: 'For the table and the pantry.',
        leaves: [
          leaf('Tableware', 'bowl', 14, false, [
            'Dinner plate',
            'Serving bowl',
            'Mug',
            'Salad bowl',
          ]),
          leaf('Storage jars', 'jar', 12, false, ['Storage jar', 'Spice jar', 'Bread bin']),
        ],
      },
    ],
  },
  {
    name: 'Outdoor living',
    description: 'The garden as a room.',
    children: [
      {
        name: 'Furniture',
        description: 'Somewhere to sit outside.',
        leaves: [
          leaf('Chairs', 'chair', 89, true, ['Deck chair', 'Bistro chair', 'Lounge chair']),
          leaf('Tables', 'table', 129, true, ['Bistro table', 'Side table', 'Picnic table']),
        ],
      },
      {
        name: 'Decor',
        description: 'Small things that make a garden yours.',
        leaves: [
          leaf('Candles', 'candle', 9, false, ['Pillar candle', 'Scented candle', 'Tealight set']),
          leaf('Bird feeders', 'birdhouse', 21, true, ['Bird feeder', 'Bird bath', 'Nest box']),
        ],
      },
    ],
  },
];

export const SAMPLE_BRANDS = [
  'Verdant',
  'Oakhollow',
  'Lumen and Co',
  'Terracotta Works',
  'Willowbrook',
  'Nordlicht',
  'Fernside',
  'Hearthstone',
  'Bloom and Birch',
  'Copperleaf',
] as const;

export const SAMPLE_PRICE_TYPES = [
  { symbol: 'RETAIL', description: 'Retail price' },
  { symbol: 'MEMBER', description: 'Loyalty member price' },
] as const;

/** Dynamic attribute types, one of each kind of value: a name, a size, a number, a yes or no. */
export const SAMPLE_ATTRIBUTES = {
  colour: 'Colour',
  size: 'Size',
  material: 'Material',
  height: 'Height (cm)',
  frost: 'Frost resistant',
} as const;

export const SAMPLE_TAGS = [
  { name: 'New', description: 'New this season' },
  { name: 'Bestseller', description: 'What shoppers buy most' },
  { name: 'Eco', description: 'Recycled or sustainably sourced materials' },
  { name: 'Gift idea', description: 'Wrapped for free in store' },
  { name: 'Sale', description: 'Reduced for a while' },
] as const;

export const SAMPLE_COLOURS = [
  { name: 'Sage', hex: '#8fa58a' },
  { name: 'Terracotta', hex: '#c8643b' },
  { name: 'Charcoal', hex: '#3d4148' },
  { name: 'Sand', hex: '#d9c7a3' },
  { name: 'Ocean', hex: '#2f6f8f' },
  { name: 'Mustard', hex: '#d4a236' },
  { name: 'Blush', hex: '#e3a8a0' },
  { name: 'Forest', hex: '#2e5e3e' },
] as const;

export const SAMPLE_MATERIALS = [
  'Rattan',
  'Stoneware',
  'Oak',
  'Copper',
  'Linen',
  'Bamboo',
  'Enamel',
  'Glass',
];
export const SAMPLE_STYLES = [
  'Rustic',
  'Nordic',
  'Woven',
  'Glazed',
  'Classic',
  'Garden',
  'Cottage',
  'Modern',
];
export const SAMPLE_SIZES = ['Small', 'Medium', 'Large'] as const;

/** The leaves in order, each with its path from the root. */
export const SAMPLE_LEAVES: readonly { path: string[]; leaf: SampleLeaf }[] = SAMPLE_TREE.flatMap(
  (root) =>
    root.children.flatMap((child) =>
      child.leaves.map((l) => ({ path: [root.name, child.name, l.name], leaf: l })),
    ),
);
