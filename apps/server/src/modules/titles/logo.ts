import type { PublicationConfig } from '@minside/titles';

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A plain wordmark per title: a brand-coloured initial badge and the name. We ship no
 * trademark artwork; an operator who has the right to a real logo serves it instead.
 */
export function renderWordmark(entry: Pick<PublicationConfig, 'name' | 'brandColor'>, options: { decorative?: boolean } = {}): string {
  const name = escapeXml(entry.name);
  // Decorative: as the web inlines it beside the title's name (apps/web/src/lib/load-svg.ts), hidden from assistive technology.
  const role = options.decorative ? 'aria-hidden="true" focusable="false"' : `role="img" aria-label="${name}"`;
  const initial = escapeXml(entry.name.trim().charAt(0).toUpperCase());
  const fontSize = 26;
  // Serif bold averages ~0.6 em per glyph; generous so long names never clip.
  const textWidth = Math.ceil(entry.name.length * fontSize * 0.62);
  const width = 48 + textWidth;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} 40" width="${width}" height="40" ${role}>`,
    `<title>${name}</title>`,
    `<rect x="0" y="2" width="36" height="36" rx="8" fill="${entry.brandColor}"/>`,
    `<text x="18" y="29" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif" font-size="24" font-weight="700" fill="#ffffff">${initial}</text>`,
    `<text x="46" y="29" font-family="Georgia, 'Times New Roman', serif" font-size="${fontSize}" font-weight="700" fill="#1a1a1a">${name}</text>`,
    '</svg>',
  ].join('');
}

/**
 * The wordmark at a `/logos/{domain}.svg` path, as a page inlines it: what the server render puts
 * into the header of a page (docs/decisions/032). Undefined for any other path.
 */
export function wordmarkAt(
  findByTitleDomain: (titleDomain: string) => Pick<PublicationConfig, 'name' | 'brandColor'> | undefined,
  url: string,
  options: { decorative?: boolean } = {},
): string | undefined {
  const match = /^\/logos\/([^/?#]+)\.svg$/.exec(url);
  const entry = match?.[1] ? findByTitleDomain(match[1]) : undefined;
  return entry && renderWordmark(entry, options);
}
