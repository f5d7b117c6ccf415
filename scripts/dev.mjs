// `npm run dev`: the API server (rebuilt on start) on :3100 and Vite with hot reload on :3000,
// proxying /api, /logos, /idp and /_dev to it. Payments stay on the test provider (/_dev/pay,
// through the proxy): the embedded Vipps MobilePay simulator of `npm start` would send the payer
// back to the API server's port, which serves no web app here. PAYMENT_PROVIDER in the
// environment still wins.
import { spawn } from 'node:child_process';
import { root, run } from './lib.mjs';

if ((await run('npm', ['run', 'build', '-w', 'apps/server'])) !== 0) process.exit(1);
const children = [
  spawn('node', ['apps/server/dist/main.js'], { cwd: root, stdio: 'inherit', env: { PAYMENT_PROVIDER: 'test', ...process.env, PORT: '3100', WEB_DIST: '' } }),
  spawn('npx', ['vite', '--port', '3000', '--host'], { cwd: `${root}/apps/web`, stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((child) => child.on('exit', stop));
