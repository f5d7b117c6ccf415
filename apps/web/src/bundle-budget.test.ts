import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pages, type AreaRoutes, type Area } from './app/paths.ts';

/**
 * The JavaScript budget of `/` (issue 27 §2): everything the document loads before the overview
 * renders, gzip, must not grow past the budget. Byte sizes of a build are deterministic, so this
 * fails on the change that adds the bytes, not on a machine's mood.
 *
 * Measured on the build `npm test` makes before it runs the tests (scripts/test.mjs: build, then
 * Vitest), apps/web/dist. Without a build the test fails; it never passes on nothing.
 *
 * "JS for /" is what `npm run bench:web -w bench` calls so: the scripts and module preloads of
 * index.html with what they import, plus the chunk of the overview's area with what it imports
 * statically (the router loads it, and Vite preloads its imports with it). Chunks loaded later
 * and only on some visits (the consent bar, analytics when the browser is idle, browser
 * monitoring after consent) are not in it. gzip at zlib's default level, as the bench; 1 KB =
 * 1000 bytes.
 */

/** The goal of issue 27 §2 for JS for `/` (50 KB), plus 10 %. */
const BUDGET_BYTES = 55_000;

const dist = path.resolve(import.meta.dirname, '../dist');
const assets = path.join(dist, 'assets');

/** `./x.js` and `/assets/x.js` both name a file in dist/assets. */
const assetName = (specifier: string) => path.posix.basename(specifier);

/** The chunks a chunk imports statically (`import … from "./x.js"`, `import "./x.js"`); `import("./x.js")` is not followed. */
function staticImports(code: string): string[] {
  return [...code.matchAll(/\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)].map((match) => assetName(match[1]!));
}

function closure(roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const full = path.join(assets, file);
    if (!existsSync(full)) throw new Error(`${file} is imported but not in ${assets}`);
    seen.add(file);
    staticImports(readFileSync(full, 'utf8')).forEach(visit);
  };
  roots.forEach(visit);
  return [...seen];
}

/** The document's own scripts: `<script type="module" src>` and `<link rel="modulepreload" href>`. */
function documentScripts(html: string): string[] {
  const tags = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+\.js)"[^>]*>/g), ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+\.js)"[^>]*>/g)];
  return tags.map((match) => assetName(match[1]!));
}

/** The area chunk (vite.config.ts names it `area-<area>-<hash>.js`). */
function areaChunk(area: Area): string {
  const files = readdirSync(assets).filter((file) => new RegExp(`^area-${area}-[\\w-]+\\.js$`).test(file));
  if (files.length !== 1) throw new Error(`expected one chunk for the ${area} area in ${assets}, found ${files.length}: ${files.join(', ')}`);
  return files[0]!;
}

const gzipBytes = (file: string) => gzipSync(readFileSync(path.join(assets, file))).length;

describe('JavaScript budget of / (issue 27)', () => {
  it('the overview renders from its area chunk, which the budget follows (a page split off with `load` is a chunk of its own)', async () => {
    const area = pages.home.area;
    const areaRoutes = import.meta.glob<{ routes: Partial<AreaRoutes<Area>> }>('./features/*/routes.ts');
    const load = areaRoutes[`./features/${area}/routes.ts`];
    expect(load, `no routes.ts for the ${area} area`).toBeDefined();
    const { routes } = await load!();
    expect(routes).toHaveProperty('home.Component');
  });

  it(`loads at most ${BUDGET_BYTES / 1000} KB of JavaScript, gzip`, () => {
    expect(existsSync(path.join(dist, 'index.html')), `${dist}/index.html is missing: run \`npm run build\` first (npm test does)`).toBe(true);
    const roots = documentScripts(readFileSync(path.join(dist, 'index.html'), 'utf8'));
    expect(roots.length, 'index.html loads no script').toBeGreaterThan(0);
    const files = closure([...roots, areaChunk(pages.home.area)]);
    const sizes = files.map((file) => ({ file, gzip: gzipBytes(file) })).sort((a, b) => b.gzip - a.gzip);
    const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
    const report = sizes.map(({ file, gzip }) => `${(gzip / 1000).toFixed(1).padStart(6)} KB  ${file}`).join('\n');
    expect(total, `JS for / is ${(total / 1000).toFixed(1)} KB gzip, over the budget of ${BUDGET_BYTES / 1000} KB:\n${report}`).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
