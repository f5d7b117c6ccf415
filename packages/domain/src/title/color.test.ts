import { describe, expect, it } from 'vitest';
import { brandPalette, contrastRatio, parseHexColor } from './color.ts';

const white = [255, 255, 255] as const;

describe('brandPalette', () => {
  it.each(['#00539f', '#d0021b', '#1a1a2e', '#ffd500', '#7fdbff', '#555555', '#ffffff'])('keeps text readable for %s', (brand) => {
    const palette = brandPalette(brand);
    const rgb = parseHexColor(palette.brand)!;
    expect(contrastRatio(parseHexColor(palette.onBrand)!, rgb)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(parseHexColor(palette.brandInk)!, white)).toBeGreaterThanOrEqual(4.5);
  });

  it('uses dark text on a light brand colour and white on a dark one', () => {
    expect(brandPalette('#ffd500').onBrand).toBe('#111111');
    expect(brandPalette('#00539f').onBrand).toBe('#ffffff');
  });

  it('leaves a brand colour that already reads well on white as its own ink', () => {
    expect(brandPalette('#00539f').brandInk).toBe('#00539f');
  });

  it('falls back to a neutral brand for a malformed colour', () => {
    expect(brandPalette('red').brand).toBe('#2b4a6f');
  });
});
