import { createHash } from 'node:crypto';

/**
 * How a server-rendered page starts its scripts (docs/decisions/032): after its first paint, not
 * while it is parsed. The page reads in full without them; they only make it interactive. Left to
 * the preload scanner, the entry, its imports and the area's chunk start downloading as soon as the
 * `<head>` is read and share the connection with the document itself, and Lighthouse's simulation
 * counts every request started before the largest paint as holding that paint up (on slow 4G,
 * 47 KB of scripts is over half a second). Started from here, the paint cannot wait on them.
 *
 * The files come in the element's `data-modules` (the entry first), so the script's text is one
 * constant, allowed by its hash in the page's CSP. It waits for the whole document first (unlike a
 * module script, `import()` does not): the entry expects #root and the data blocks at the end of
 * `<body>`, and takes the session's block out of the page. Then it waits for the browser's own word
 * that the page has painted (a `paint` performance entry): an animation frame comes before the paint
 * is on screen, and scripts started from it were still counted as holding the paint up (signed-in
 * `/`, LCP 0.8 → 1.3 s). A browser without paint timing starts after a frame, and any page after
 * a second at most. A hidden page (a tab opened in the background) paints nothing: it starts once
 * parsed. The preloads go into `<head>` a few at a time, one fragment per task: added one by one,
 * each cost the browser its own round of work (the 16 of signed-in `/` made a task of 140 ms at
 * Lighthouse's 4 × CPU slowdown); all in one fragment, each still costs its request's set-up on the
 * main thread (`ResourceFetcher::requestResource`, 2 ms each at 4 ×), and the 14 of signed-in `/`
 * made one task of 55–150 ms, blocking the page while it hydrates (Total Blocking Time). Three per
 * task keep each task short; the entry is asked for first, and the last preload is added a few
 * milliseconds later than in one task, long before the entry has arrived and asks for its imports.
 */
const LOADER = [
  '(function(){',
  "var files=document.currentScript.getAttribute('data-modules').split(' ');",
  'function preload(from){',
  'var links=document.createDocumentFragment(),i=from;',
  "for(;i<files.length&&i<from+3;i++){var link=document.createElement('link');link.rel='modulepreload';link.crossOrigin='';link.href=files[i];links.appendChild(link);}",
  'document.head.appendChild(links);',
  'if(i<files.length)setTimeout(function(){preload(i);},0);',
  '}',
  'function start(){',
  'import(files[0]);',
  'preload(1);',
  '}',
  'function afterPaint(){',
  "if(document.visibilityState==='hidden')return start();",
  'var started=false;function once(){if(!started){started=true;start();}}',
  "try{new PerformanceObserver(function(list,observer){observer.disconnect();setTimeout(once,0);}).observe({type:'paint',buffered:true});}",
  'catch(error){requestAnimationFrame(function(){setTimeout(once,0);});}',
  'setTimeout(once,1000);',
  '}',
  "if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',afterPaint);else afterPaint();",
  '})();',
].join('');

/** The CSP source that allows the loader, and only it. */
export const SCRIPT_LOADER_HASH = `'sha256-${createHash('sha256').update(LOADER).digest('base64')}'`;

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The loader element for these module files (absolute paths, the entry first). */
export function scriptLoader(modules: readonly string[]): string {
  return `<script data-modules="${escapeAttribute(modules.join(' '))}">${LOADER}</script>`;
}

/**
 * index.html's entry script and module preloads, taken out: what the loader is to start instead.
 * Undefined when the page has no entry script (a template of another shape).
 */
export function takeModuleScripts(html: string): { html: string; modules: string[] } | undefined {
  let entry: string | undefined;
  const preloads: string[] = [];
  const rest = html
    .replace(/<script type="module" crossorigin src="([^"]+)"><\/script>\s*/g, (_tag, src: string) => {
      entry = src;
      return '';
    })
    .replace(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g, (_tag, href: string) => {
      preloads.push(href);
      return '';
    });
  return entry === undefined ? undefined : { html: rest, modules: [entry, ...preloads] };
}
