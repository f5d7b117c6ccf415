// `npm start`: build what is missing or out of date, then run the server in this process.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isStale, root, run, serverInputs, webInputs } from './lib.mjs';

if (isStale('apps/web/dist/index.html', webInputs)) {
  console.log('Min Side: building the web app …');
  if ((await run('npm', ['run', 'build', '-w', 'apps/web'])) !== 0) process.exit(1);
}
if (isStale('apps/server/dist/main.js', serverInputs)) {
  console.log('Min Side: building the server …');
  if ((await run('npm', ['run', 'build', '-w', 'apps/server'])) !== 0) process.exit(1);
}
await import(pathToFileURL(path.join(root, 'apps/server/dist/main.js')).href);
