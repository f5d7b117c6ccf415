/**
 * Brand colours come from the title catalogue and may be any hue. These helpers keep text
 * readable (WCAG 2 contrast): a foreground for text on the brand colour, and a darkened
 * brand "ink" for brand-coloured text and links on white. Shared by the SPA's theme and the
 * identity provider's login pages, so both dress a title alike.
 */

type Rgb = readonly [number, number, number];

export function parseHexColor(value: string): Rgb | undefined {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match?.[1]) return undefined;
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb;
}

function toHex(rgb: Rgb): string {
  return '#' + rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');
}

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function relativeLuminance(rgb: Rgb): number {
  return 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2]);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [17, 17, 17];

export interface BrandPalette {
  /** The brand colour as given (accents, borders, backgrounds). */
  brand: string;
  /** Text colour to put on the brand colour: white or near-black, whichever reads better. */
  onBrand: string;
  /** The brand colour darkened until it reaches 4.5:1 on white: for brand-coloured text. */
  brandInk: string;
}

export const NEUTRAL_BRAND = '#2b4a6f';

export function brandPalette(brandColor: string): BrandPalette {
  const rgb = parseHexColor(brandColor) ?? (parseHexColor(NEUTRAL_BRAND) as Rgb);
  const onBrand = contrastRatio(rgb, WHITE) >= contrastRatio(rgb, INK) ? WHITE : INK;
  let ink: Rgb = rgb;
  for (let step = 0; step < 20 && contrastRatio(ink, WHITE) < 4.5; step++) {
    ink = ink.map((c) => c * 0.9) as unknown as Rgb;
  }
  return { brand: toHex(rgb), onBrand: toHex(onBrand), brandInk: toHex(ink) };
}
