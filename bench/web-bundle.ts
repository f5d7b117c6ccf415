// Benchmark: how much JavaScript the browser must fetch before a page can render, gzipped.
// Builds apps/web with its own vite.config.ts into a temporary directory (apps/web/dist is
// left alone) with the manifest switched on, then sums, per page, the entry chunk and the
// page's lazily loaded area chunk (src/features/<area>/routes.ts, found through the route
// table in apps/web/src/app/paths.ts) with everything either imports statically. Pages an area
// splits off its chunk (`load` in its routes.ts) are route chunks of their own. The floor is
// react + react-dom alone (`createRoot(document.body).render(null)`) built with the same config:
// the ratio ours ÷ floor is what the product adds over the smallest React app possible. The
// config's aliases decide what `react-dom` is (preact/compat since ADR 021); the report names the
// packages the floor bundled.
// Targets of issue 10 (not a test; it never fails the run): JS for / <= 110 KB gzip and every
// route chunk <= 30 KB gzip, with 1 KB = 1000 bytes.
//   npm run bench:web -w bench
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Manifest, type Plugin } from 'vite';
import { areas, pages, type Area } from '../apps/web/src/app/paths.ts';

const repo = path.resolve(import.meta.dirname, '..');
const webRoot = path.join(repo, 'apps/web');
const configFile = path.join(webRoot, 'vite.config.ts');
const KB = 1000;
const TARGET_PAGE_KB = 110;
const TARGET_CHUNK_KB = 30;
const PAGES = ['/', '/kundeservice'];

/** Builds `root` with the web app's config into a temporary outDir and returns its manifest. */
async function buildWithManifest(root: string, outDir: string, plugins: Plugin[] = []): Promise<Manifest> {
  await build({
    configFile,
    root,
    plugins,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: 'manifest.json' },
  });
  return JSON.parse(await readFile(path.join(outDir, 'manifest.json'), 'utf8')) as Manifest;
}

/** Collects the npm packages a build bundles (from its chunks' module ids): names the floor's runtime. */
function bundledPackages(into: Set<string>): Plugin {
  return {
    name: 'bench:bundled-packages',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        for (const id of file.moduleIds) {
          // The last node_modules segment; the floor's own entry sits under node_modules/.cache.
          const name = /.*[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id)?.[1];
          if (name && !name.startsWith('.')) into.add(name);
        }
      }
    },
  };
}

function gzipSizer(outDir: string) {
  const cache = new Map<string, Promise<number>>();
  return (file: string) => {
    let size = cache.get(file);
    if (!size) {
      // zlib's default level (6), as Vite's build report and a typical on-the-fly server use.
      size = readFile(path.join(outDir, file)).then((bytes) => gzipSync(bytes).length);
      cache.set(file, size);
    }
    return size;
  };
}

/** The chunk files of `keys` and of everything they import statically (dynamic imports not followed). */
function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the manifest`);
    files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

function entryKey(manifest: Manifest): string {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry chunk, found ${entries.length}`);
  return entries[0]![0];
}

function areaOf(pathname: string): Area {
  const page = Object.values(pages).find((candidate) => candidate.pattern === pathname);
  if (!page) throw new Error(`no page for ${pathname} in the route table`);
  return page.area;
}

const areaKey = (area: Area) => `src/features/${area}/routes.ts`;
const kb = (bytes: number) => Math.round((bytes / KB) * 10) / 10;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

async function main() {
  const scratch = await mkdtemp(path.join(tmpdir(), 'minside-bench-web-'));
  // The floor's entry sits under node_modules so it resolves the repository's react and react-dom.
  const floorRoot = path.join(repo, 'node_modules/.cache/minside-bench-floor');
  try {
    const appOut = path.join(scratch, 'app');
    const started = performance.now();
    const manifest = await buildWithManifest(webRoot, appOut);
    const buildSeconds = (performance.now() - started) / 1000;
    const appGzip = gzipSizer(appOut);

    await rm(floorRoot, { recursive: true, force: true });
    await mkdir(floorRoot, { recursive: true });
    await writeFile(path.join(floorRoot, 'index.html'), '<!doctype html><html><body><script type="module" src="/main.js"></script></body></html>\n');
    await writeFile(path.join(floorRoot, 'main.js'), "import { createRoot } from 'react-dom/client';\ncreateRoot(document.body).render(null);\n");
    const floorOut = path.join(scratch, 'floor');
    const floorPackageSet = new Set<string>();
    const floorManifest = await buildWithManifest(floorRoot, floorOut, [bundledPackages(floorPackageSet)]);
    const floorRuntime = [...floorPackageSet].sort().join(' + ');
    const floorGzip = gzipSizer(floorOut);
    const floorFiles = staticClosure(floorManifest, [entryKey(floorManifest)]);
    const floor = sum(await Promise.all(floorFiles.map(floorGzip)));

    const entry = entryKey(manifest);
    const entryFiles = staticClosure(manifest, [entry]);
    const entryBytes = sum(await Promise.all(entryFiles.map(appGzip)));

    const pageResults = [];
    for (const pathname of PAGES) {
      const area = areaOf(pathname);
      const files = staticClosure(manifest, [entry, areaKey(area)]);
      const gzip = sum(await Promise.all(files.map(appGzip)));
      pageResults.push({ path: pathname, area, files, gzipBytes: gzip, gzipKB: kb(gzip), ratioToFloor: Math.round((gzip / floor) * 100) / 100 });
    }

    // Every chunk with its kind. A route chunk is an area's lazily loaded routes.ts chunk (the
    // router's unit); its download is that chunk plus what it imports statically and the entry
    // has not already loaded (shared components, the date-picker widgets).
    const entrySet = new Set(entryFiles);
    const routeFiles = new Set(
      areas.flatMap((area) => {
        const chunk = manifest[areaKey(area)];
        const splitPages = (chunk?.dynamicImports ?? []).filter((key) => key.startsWith(`src/features/${area}/pages/`));
        return [chunk?.file, ...splitPages.map((key) => manifest[key]?.file)];
      }),
    );
    const chunks = [];
    for (const [key, chunk] of Object.entries(manifest)) {
      if (!chunk.file.endsWith('.js')) continue;
      const gzip = await appGzip(chunk.file);
      const area = /^src\/features\/([^/]+)\/routes\.ts$/.exec(key)?.[1] ?? null;
      const kind = chunk.isEntry ? 'entry' : entrySet.has(chunk.file) ? 'entry import' : routeFiles.has(chunk.file) ? 'route' : chunk.isDynamicEntry ? 'other lazy' : 'shared';
      chunks.push({ file: chunk.file, kind, area, gzipBytes: gzip, gzipKB: kb(gzip) });
    }
    chunks.sort((a, b) => b.gzipBytes - a.gzipBytes);

    // A page an area splits off its chunk (`load` in its routes.ts, for a form) is a route chunk of its own.
    const routeKeys: { area: Area; page: string | null; key: string }[] = [];
    for (const area of areas) {
      const chunk = manifest[areaKey(area)];
      if (!chunk) throw new Error(`${areaKey(area)} is not in the manifest`);
      routeKeys.push({ area, page: null, key: areaKey(area) });
      for (const key of chunk.dynamicImports ?? []) {
        const page = new RegExp(`^src/features/${area}/pages/([^/]+)\\.tsx$`).exec(key)?.[1];
        if (page) routeKeys.push({ area, page, key });
      }
    }
    const routes = [];
    for (const { area, page, key } of routeKeys) {
      const chunk = manifest[key]!;
      const gzip = await appGzip(chunk.file);
      // A split page is reached from its area's chunk: what that already loaded is not downloaded again.
      const loaded = new Set([...entrySet, ...(page ? staticClosure(manifest, [areaKey(area)]) : [])]);
      const download = staticClosure(manifest, [key]).filter((file) => !loaded.has(file));
      const downloadBytes = sum(await Promise.all(download.map(appGzip)));
      routes.push({ area, page, file: chunk.file, gzipBytes: gzip, gzipKB: kb(gzip), pass: gzip <= TARGET_CHUNK_KB * KB, downloadFiles: download, downloadGzipKB: kb(downloadBytes), downloadBytes });
    }
    routes.sort((a, b) => b.gzipBytes - a.gzipBytes);

    const home = pageResults.find((result) => result.path === '/')!;
    const targets = {
      jsForHome: { targetKB: TARGET_PAGE_KB, actualKB: home.gzipKB, pass: home.gzipBytes <= TARGET_PAGE_KB * KB },
      everyRouteChunk: {
        targetKB: TARGET_CHUNK_KB,
        largest: { file: routes[0]!.file, gzipKB: routes[0]!.gzipKB },
        failing: routes.filter((route) => !route.pass).map((route) => route.file),
        pass: routes.every((route) => route.pass),
        // Informational: the same limit on what a first visit to the area downloads beyond the entry.
        downloadsOverTarget: routes.filter((route) => route.downloadBytes > TARGET_CHUNK_KB * KB).map((route) => ({ area: route.area, page: route.page, downloadGzipKB: route.downloadGzipKB })),
      },
    };

    const report = {
      benchmark: 'web-bundle',
      date: new Date().toISOString(),
      buildSeconds: Math.round(buildSeconds * 10) / 10,
      gzip: 'zlib level 6; 1 KB = 1000 bytes',
      floor: { what: `createRoot(document.body).render(null) from react-dom/client; bundles ${floorRuntime}`, runtime: floorRuntime, files: floorFiles, gzipBytes: floor, gzipKB: kb(floor) },
      entry: { files: entryFiles, gzipBytes: entryBytes, gzipKB: kb(entryBytes), ratioToFloor: Math.round((entryBytes / floor) * 100) / 100 },
      pages: pageResults,
      routes,
      chunks,
      targets,
    };
    console.log(JSON.stringify(report, null, 2));

    const rows = [
      ['what', 'gzip KB', '÷ floor', 'target', 'result'],
      [`floor: react-dom/client → ${floorRuntime}`, String(kb(floor)), '1', '', ''],
      ['entry + static imports', String(kb(entryBytes)), String(report.entry.ratioToFloor), '', ''],
      ...pageResults.map((result) => [
        `JS for ${result.path} (area ${result.area})`,
        String(result.gzipKB),
        String(result.ratioToFloor),
        result.path === '/' ? `<= ${TARGET_PAGE_KB}` : '',
        result.path === '/' ? (targets.jsForHome.pass ? 'pass' : 'FAIL') : '',
      ]),
      ...routes.map((route) => [
        `route ${route.area}${route.page ? `/${route.page}` : ''} (with its imports: ${route.downloadGzipKB})`,
        String(route.gzipKB),
        '',
        `<= ${TARGET_CHUNK_KB}`,
        route.pass ? 'pass' : 'FAIL',
      ]),
      ...chunks.filter((chunk) => chunk.kind === 'other lazy' || chunk.gzipBytes > TARGET_CHUNK_KB * KB).map((chunk) => [`${chunk.kind}: ${chunk.file}`, String(chunk.gzipKB), '', '', '']),
    ];
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    console.log('\nWeb bundle (gzip, KB = 1000 bytes)');
    for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
    console.log(
      `\nJS for / <= ${TARGET_PAGE_KB} KB: ${targets.jsForHome.pass ? 'pass' : 'FAIL'}; every route chunk <= ${TARGET_CHUNK_KB} KB: ${targets.everyRouteChunk.pass ? 'pass' : `FAIL (${targets.everyRouteChunk.failing.length})`}`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await rm(floorRoot, { recursive: true, force: true });
  }
}

await main();
