import type { Plugin } from 'vite';

/**
 * V8's explicit compile hint (Chrome 136 and later; to other engines a comment): in a file whose
 * first line is this, V8 compiles every function as the file streams in, on a background thread.
 * Without it each function is compiled on the main thread the first time it is called, and on a
 * page's first load that was about half of the tasks after the first paint (docs/performance.md,
 * "2026-11-27, late": 183–235 ms of lazy compiling on the main thread in a trace of `/` at a real
 * 4 × CPU slowdown, 47–65 ms with the hint on the entry and Preact).
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * The files every page runs all of at start: the entry (our shell) and `vendor` (Preact, which
 * the entry imports). Not the lazy chunks (a route's area, the forms, zod, the widgets): measured,
 * the hint on every file took main-thread compiling on `/` further down but its tasks no shorter
 * (blocking time in traces at 4 ×), a function compiled but never called costs background time
 * and memory, and the comment costs bytes (JS for `/` has a budget). Not the bundler's runtime either: a few hundred bytes.
 */
export function wantsCompileHint(chunk: { isEntry: boolean; name: string }): boolean {
  return chunk.isEntry || chunk.name === 'vendor';
}

/**
 * Puts `COMPILE_HINT` on the first line of the files `wantsCompileHint` picks. Last of all the
 * plugins that write chunks (`order: 'post'`), because the hint must be the very first line and
 * Vite puts its list of preload dependencies first. The source map gains one empty line in front.
 * The hint is part of those files' hash (`augmentChunkHash`), so a file that gains or loses it
 * gets a new name and no cache keeps the other version.
 */
export function compileHints(): Plugin {
  return {
    name: 'minside:compile-hints',
    apply: 'build',
    augmentChunkHash(chunk) {
      return wantsCompileHint(chunk) ? COMPILE_HINT : undefined;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !wantsCompileHint(chunk)) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          const mapAsset = chunk.sourcemapFileName ? bundle[chunk.sourcemapFileName] : undefined;
          if (mapAsset?.type === 'asset') {
            const map = JSON.parse(String(mapAsset.source)) as { mappings: string };
            mapAsset.source = JSON.stringify({ ...map, mappings: `;${map.mappings}` });
          }
        }
      },
    },
  };
}
