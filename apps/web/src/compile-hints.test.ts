import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, hintedFiles } from '../compile-hints.ts';

const code = (bytes: number) => 'x'.repeat(bytes);

describe('which files get the compile hint', () => {
  it('the entry and what it imports statically, when 4 KB or more; nothing loaded lazily', () => {
    const hinted = hintedFiles([
      { fileName: 'assets/index.js', code: code(60_000), isEntry: true, imports: ['assets/vendor.js', 'assets/rolldown-runtime.js'] },
      { fileName: 'assets/vendor.js', code: code(24_000), isEntry: false, imports: ['assets/rolldown-runtime.js'] },
      { fileName: 'assets/rolldown-runtime.js', code: code(245), isEntry: false, imports: [] },
      { fileName: 'assets/area-subscription.js', code: code(26_000), isEntry: false, imports: ['assets/vendor.js'] },
      { fileName: 'assets/zod.js', code: code(60_000), isEntry: false, imports: [] },
    ]);
    expect([...hinted].sort()).toEqual(['assets/index.js', 'assets/vendor.js']);
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
  const entryFile = () => {
    expect(existsSync(path.join(dist, 'index.html')), `${dist}/index.html is missing: run \`npm run build\` first (npm test does)`).toBe(true);
    const entry = /<script\b[^>]*\btype="module"[^>]*\bsrc="\/assets\/([^"]+\.js)"/.exec(readFileSync(path.join(dist, 'index.html'), 'utf8'))?.[1];
    expect(entry, 'index.html starts no module script').toBeDefined();
    return entry!;
  };

  it('is the first line of the entry and of Preact, and of no area chunk', () => {
    const vendor = readdirSync(assets).find((file) => /^vendor-[\w-]+\.js$/.test(file));
    expect(vendor).toBeDefined();
    expect(read(entryFile()).startsWith(`${COMPILE_HINT}\n`)).toBe(true);
    expect(read(vendor!).startsWith(`${COMPILE_HINT}\n`)).toBe(true);
    const areas = readdirSync(assets).filter((file) => /^area-[\w-]+\.js$/.test(file));
    expect(areas.length).toBeGreaterThan(0);
    for (const area of areas) expect(read(area), area).not.toContain(COMPILE_HINT);
  });

  it("keeps the source map on the code's lines: one line more in the map, none mapped on the hint's", () => {
    const entry = entryFile();
    const lines = read(entry)
      .split('\n')
      .filter((line) => !line.startsWith('//# sourceMappingURL='));
    const mappings = (JSON.parse(read(`${entry}.map`)) as { mappings: string }).mappings.split(';');
    expect(mappings[0]).toBe('');
    expect(mappings.length).toBe(lines.length);
  });
});
