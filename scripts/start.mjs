// `npm start`: build what is missing or out of date, then run the server in this process.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isStale, root, run, serverInputs, webInputs } from './lib.mjs';

// The server render's bundle (docs/decisions/032) is built with the web app: a build from before it is rebuilt.
if (isStale('apps/web/dist/index.html', webInputs) || isStale('apps/web/dist/ssr/entry-server.mjs', webInputs)) {
  console.log('Min Side: building the web app …');
  if ((await run('npm', ['run', 'build', '-w', 'apps/web'])) !== 0) process.exit(1);
}
if (isStale('apps/server/dist/main.js', serverInputs)) {
  console.log('Min Side: building the server …');
  if ((await run('npm', ['run', 'build', '-w', 'apps/server'])) !== 0) process.exit(1);
}
// "Logg inn med Vipps" beside the demo account (issue 24): the Vipps Login simulator in the server,
// on a developer's machine only — production, or a real second issuer, is left as configured.
const production = process.env.NODE_ENV === 'production' || (process.env.PUBLIC_URL ?? '').startsWith('https://');
// Not beside a real issuer or a real database either: the simulator's persons have published passwords.
if (!production && !process.env.OIDC2_ISSUER && !process.env.OIDC_ISSUER && !process.env.DATABASE_URL) process.env.VIPPS_LOGIN ??= 'simulator';
await import(pathToFileURL(path.join(root, 'apps/server/dist/main.js')).href);
