// The sample's product images, drawn here as small SVG files (no download, no licence to carry):
// a flat drawing of the product's kind in its colour, on a soft background. One drawing per shape
// and colour, so a catalog of any size has at most 14 × 8 images.
import type { SampleShape } from './sample-assortment.ts';
import type { SampleImage } from './sample-catalog.ts';

const INK = '#2b2b2b';

/** The drawing of each kind of product, in a 200 × 200 box; `c` is the product's colour. */
const DRAWINGS: Record<SampleShape, (c: string) => string> = {
  plant: (c) =>
    `<path d="M100 120 C60 100 50 60 70 40 C85 70 95 90 100 120 Z" fill="#4f8a4b"/>` +
    `<path d="M100 120 C140 100 150 60 130 40 C115 70 105 90 100 120 Z" fill="#5f9f58"/>` +
    `<path d="M100 120 C95 80 100 50 100 30 C106 60 106 90 100 120 Z" fill="#3f7a3c"/>` +
    `<path d="M65 120 H135 L125 170 H75 Z" fill="${c}"/>`,
  pot: (c) =>
    `<path d="M55 70 H145 L130 165 H70 Z" fill="${c}"/><rect x="50" y="60" width="100" height="16" rx="4" fill="${c}" stroke="${INK}" stroke-opacity=".15"/>`,
  tool: (c) =>
    `<rect x="92" y="30" width="16" height="80" rx="8" fill="${c}"/><path d="M80 110 H120 L110 175 Q100 185 90 175 Z" fill="#9aa0a6"/>`,
  can: (c) =>
    `<rect x="55" y="80" width="80" height="80" rx="10" fill="${c}"/><path d="M135 95 L175 60 L180 66 L140 110 Z" fill="${c}"/>` +
    `<path d="M70 80 Q95 40 120 80" fill="none" stroke="${c}" stroke-width="8"/>`,
  lantern: (c) =>
    `<path d="M85 45 Q100 25 115 45" fill="none" stroke="${INK}" stroke-width="5"/><rect x="70" y="45" width="60" height="14" rx="3" fill="${c}"/>` +
    `<rect x="75" y="59" width="50" height="90" fill="#fff6d5" stroke="${c}" stroke-width="6"/>` +
    `<ellipse cx="100" cy="110" rx="9" ry="16" fill="#f4b73f"/><rect x="68" y="149" width="64" height="14" rx="3" fill="${c}"/>`,
  lamp: (c) =>
    `<path d="M70 40 H130 L150 95 H50 Z" fill="${c}"/><rect x="96" y="95" width="8" height="60" fill="${INK}"/>` +
    `<rect x="70" y="155" width="60" height="12" rx="5" fill="${INK}"/>`,
  cushion: (c) =>
    `<path d="M45 55 Q100 70 155 55 Q145 100 155 145 Q100 130 45 145 Q55 100 45 55 Z" fill="${c}"/>` +
    `<circle cx="100" cy="100" r="6" fill="${INK}" fill-opacity=".3"/>`,
  throw: (c) =>
    `<rect x="45" y="45" width="110" height="110" rx="6" fill="${c}"/>` +
    `<path d="M45 75 H155 M45 105 H155 M45 135 H155" stroke="#fff" stroke-opacity=".5" stroke-width="6"/>`,
  bowl: (c) =>
    `<path d="M40 90 H160 Q155 150 100 155 Q45 150 40 90 Z" fill="${c}"/><ellipse cx="100" cy="90" rx="60" ry="10" fill="${c}" stroke="${INK}" stroke-opacity=".2"/>`,
  jar: (c) =>
    `<rect x="65" y="70" width="70" height="95" rx="12" fill="${c}" fill-opacity=".85"/><rect x="70" y="50" width="60" height="22" rx="4" fill="#a47148"/>`,
  chair: (c) =>
    `<rect x="65" y="40" width="70" height="60" rx="6" fill="${c}"/><rect x="60" y="100" width="80" height="14" rx="4" fill="${c}"/>` +
    `<path d="M66 114 L60 170 M134 114 L140 170" stroke="${INK}" stroke-width="6"/>`,
  table: (c) =>
    `<ellipse cx="100" cy="75" rx="70" ry="16" fill="${c}"/><rect x="94" y="80" width="12" height="75" fill="${INK}"/>` +
    `<rect x="70" y="155" width="60" height="10" rx="4" fill="${INK}"/>`,
  candle: (c) =>
    `<rect x="78" y="80" width="44" height="85" rx="4" fill="${c}"/><path d="M100 45 Q112 62 100 75 Q88 62 100 45 Z" fill="#f4b73f"/>`,
  birdhouse: (c) =>
    `<path d="M55 80 L100 40 L145 80 Z" fill="#8b5a3c"/><rect x="65" y="80" width="70" height="75" fill="${c}"/>` +
    `<circle cx="100" cy="110" r="12" fill="${INK}"/><rect x="96" y="155" width="8" height="25" fill="#8b5a3c"/>`,
};

/** The SVG document of an image: its drawing over a pale wash of its own colour. */
export function drawSampleImage(image: SampleImage): Buffer {
  const { hex } = image.colour;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200" role="img">` +
    `<title>${image.shape}, ${image.colour.name.toLowerCase()}</title>` +
    `<rect width="200" height="200" fill="${hex}" fill-opacity=".12"/>` +
    DRAWINGS[image.shape](hex) +
    `</svg>`;
  return Buffer.from(svg, 'utf8');
}
