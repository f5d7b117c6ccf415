import { serverSvg } from './page-scope.ts';

/** SPEC §8 image loader errors, used verbatim. */
export const SVG_INVALID_MESSAGE = 'Loaded file is not valid SVG';
export const SVG_LOAD_ERROR_MESSAGE = 'Error loading SVG';

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

/**
 * GETs an SVG file and returns sanitised markup to inline. Throws `Error loading SVG` when
 * the request fails or the status is outside 200–399, and `Loaded file is not valid SVG`
 * when the body is not an SVG document.
 */
export async function loadSvg(url: string, options: PrepareSvgOptions & { signal?: AbortSignal } = {}): Promise<string> {
  // In the server render, the server's own SVG as it would come out of prepareSvg (docs/decisions/032).
  const server = serverSvg();
  if (server) return server(url, { decorative: options.decorative ?? false });
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'image/svg+xml' }, signal: options.signal ?? null });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new Error(SVG_LOAD_ERROR_MESSAGE, { cause });
  }
  if (response.status < 200 || response.status > 399) {
    throw new Error(SVG_LOAD_ERROR_MESSAGE);
  }
  return prepareSvg(await response.text(), options);
}
