import { serverSvg } from './page-scope.ts';
import type { PrepareSvgOptions } from './prepare-svg.ts';

/** SPEC §8 image loader error, used verbatim (the other, for a file that is not SVG, is in prepare-svg.ts). */
export const SVG_LOAD_ERROR_MESSAGE = 'Error loading SVG';

/**
 * GETs an SVG file and returns sanitised markup to inline. Throws `Error loading SVG` when
 * the request fails or the status is outside 200–399, and `Loaded file is not valid SVG`
 * when the body is not an SVG document.
 */
export async function loadSvg(url: string, options: PrepareSvgOptions & { signal?: AbortSignal } = {}): Promise<string> {
  // In the server render, the server's own SVG as it would come out of prepareSvg (docs/decisions/032).
  const server = serverSvg();
  if (server) return server(url, { decorative: options.decorative ?? false });
  // The sanitiser's module is fetched beside the file, not before it.
  const sanitiser = import('./prepare-svg.ts').catch((cause: unknown) => {
    throw new Error(SVG_LOAD_ERROR_MESSAGE, { cause });
  });
  const [{ prepareSvg }, source] = await Promise.all([sanitiser, fetchSvg(url, options.signal)]);
  return prepareSvg(source, options);
}

async function fetchSvg(url: string, signal: AbortSignal | undefined): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'image/svg+xml' }, signal: signal ?? null });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new Error(SVG_LOAD_ERROR_MESSAGE, { cause });
  }
  if (response.status < 200 || response.status > 399) {
    throw new Error(SVG_LOAD_ERROR_MESSAGE);
  }
  return response.text();
}
