// The sanitiser of inlined SVG, apart from its loader (load-svg.ts), which imports it beside the
// file it fetches: a page the server rendered has its logo inline already and never needs it (issue 27).

/** SPEC §8 image loader error, used verbatim. */
export const SVG_INVALID_MESSAGE = 'Loaded file is not valid SVG';

const SVG_NS = 'http://www.w3.org/2000/svg';

export interface PrepareSvgOptions {
  /** Hide the graphic from assistive technology (its container carries the name). */
  decorative?: boolean;
}

/**
 * Parses an SVG document and returns markup that is safe to inline: no <script>, no
 * <foreignObject>, no on* event handler attributes and no javascript: links.
 * Throws `Loaded file is not valid SVG` when the text is not an SVG document.
 */
export function prepareSvg(source: string, options: PrepareSvgOptions = {}): string {
  const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
  const root = doc.documentElement;
  if (doc.getElementsByTagName('parsererror').length > 0 || root.localName !== 'svg' || root.namespaceURI !== SVG_NS) {
    throw new Error(SVG_INVALID_MESSAGE);
  }
  for (const element of Array.from(root.querySelectorAll('script, foreignObject'))) element.remove();
  for (const element of [root, ...Array.from(root.querySelectorAll('*'))]) {
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      const isHandler = name.startsWith('on');
      const isScriptLink = name.endsWith('href') && /^\s*javascript:/i.test(attribute.value);
      if (isHandler || isScriptLink) element.removeAttribute(attribute.name);
    }
  }
  if (options.decorative) {
    root.removeAttribute('role');
    root.removeAttribute('aria-label');
    root.removeAttribute('aria-labelledby');
    root.setAttribute('aria-hidden', 'true');
    root.setAttribute('focusable', 'false');
  }
  return new XMLSerializer().serializeToString(root);
}
