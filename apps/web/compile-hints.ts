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

/** The smallest file worth the hint: below it the compiling takes well under a millisecond, and the comment costs about 27 bytes gzip. */
const MIN_HINTED_BYTES = 4096;

interface BuiltChunk {
  fileName: string;
  code: string;
  isEntry: boolean;
  /** The files it imports statically. */
  imports: readonly string[];
}

/**
 * The files every page runs at start: each entry and what it imports statically (our shell and
 * Preact), when big enough. Not the lazy chunks (a route's area, the forms, zod, the widgets):
 * measured, the hint on the home page's area chunk took nothing more off the main thread, and a
 * function compiled but never called costs background time and memory.
 */
export function hintedFiles(chunks: readonly BuiltChunk[]): Set<string> {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const atStart = new Set<string>();
  for (const entry of chunks.filter((chunk) => chunk.isEntry)) {
    atStart.add(entry.fileName);
    for (const imported of entry.imports) atStart.add(imported);
  }
  return new Set([...atStart].filter((fileName) => (byName.get(fileName)?.code.length ?? 0) >= MIN_HINTED_BYTES));
}

/**
 * Puts `COMPILE_HINT` on the first line of the files `hintedFiles` picks. Last of all the plugins
 * that write chunks, because the hint must be the very first line and Vite puts its list of
 * preload dependencies first. The source map gains one empty line in front. File names keep
 * their hash (it is computed before this step, as for Vite's own list): the hint changes no
 * behaviour, and it is added the same way in every build.
 */
export function compileHints(): Plugin {
  return {
    name: 'minside:compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
        const hinted = hintedFiles(chunks);
        for (const chunk of chunks) {
          if (!hinted.has(chunk.fileName)) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          const mapAsset = bundle[`${chunk.fileName}.map`];
          if (mapAsset?.type === 'asset') {
            const map = JSON.parse(String(mapAsset.source)) as { mappings: string };
            mapAsset.source = JSON.stringify({ ...map, mappings: `;${map.mappings}` });
          }
        }
      },
    },
  };
}
