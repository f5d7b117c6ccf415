import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, wantsCompileHint } from '../compile-hints.ts';

describe('which files get the compile hint', () => {
  it('the entry and Preact (vendor); not an area, a lazy library or the runtime', () => {
    expect(wantsCompileHint({ isEntry: true, name: 'index' })).toBe(true);
    expect(wantsCompileHint({ isEntry: false, name: 'vendor' })).toBe(true);
    for (const name of ['area-subscription', 'zod', 'widgets', 'forms', 'common', 'rolldown-runtime']) expect(wantsCompileHint({ isEntry: false, name }), name).toBe(false);
  });
});

/**
 * On the build `npm test` makes before it runs the tests (as the JavaScript budget): V8 reads the
 * hint only on a file's first line, and the source map has to follow the line it adds.
 */
describe('the compile hint in the build', () => {
  const dist = path.resolve(import.meta.dirname, '../dist');
  const assets = path.join(dist, 'assets');
  const read = (file: string) => readFileSync(path.join(assets, file), 'utf8');
  const indexHtml = () => {
    expect(existsSync(path.join(dist, 'index.html')), `${dist}/index.html is missing: run \`npm run build\` first (npm test does)`).toBe(true);
    return readFileSync(path.join(dist, 'index.html'), 'utf8');
  };
  const hintedFiles = () => {
    const entry = /<script\b[^>]*\btype="module"[^>]*\bsrc="\/assets\/([^"]+\.js)"/.exec(indexHtml())?.[1];
    const vendor = readdirSync(assets).find((file) => /^vendor-[\w-]+\.js$/.test(file));
    expect(entry, 'index.html starts no module script').toBeDefined();
    expect(vendor, 'no vendor chunk').toBeDefined();
    return [entry!, vendor!];
  };

  it('is the first line of the entry and of Preact, and of no area chunk', () => {
    for (const file of hintedFiles()) expect(read(file).startsWith(`${COMPILE_HINT}\n`), file).toBe(true);
    const areas = readdirSync(assets).filter((file) => /^area-[\w-]+\.js$/.test(file));
    expect(areas.length).toBeGreaterThan(0);
    for (const area of areas) expect(read(area), area).not.toContain(COMPILE_HINT);
  });

  it("shifts each hinted file's source map by the hint's line, which maps to nothing", () => {
    for (const file of hintedFiles()) {
      const lines = read(file)
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('//# sourceMappingURL='));
      const mappings = (JSON.parse(read(`${file}.map`)) as { mappings: string }).mappings.split(';');
      expect(mappings[0], file).toBe('');
      expect(mappings.length, file).toBe(lines.length);
    }
  });

  it('leaves index.html preloading Preact and the runtime: only the lazy imports stop listing them', () => {
    const preloads = [...indexHtml().matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="\/assets\/([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(preloads.some((file) => file.startsWith('vendor-'))).toBe(true);
    expect(preloads.some((file) => file.startsWith('rolldown-runtime-'))).toBe(true);
  });
});
