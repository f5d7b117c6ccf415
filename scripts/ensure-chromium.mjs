// The e2e suite drives Debian's Chromium (no browser downloads here). Install it when
// missing and we may; otherwise fail with a one-line instruction.
import { existsSync } from 'node:fs';
import { run } from './lib.mjs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function ensureChromium() {
  if (existsSync(chromiumPath)) return true;
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${chromiumPath}: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH) and try again.`);
    return false;
  }
  console.log('Installing Debian Chromium for the e2e suite …');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  const code = await run('apt-get', ['install', '-y', '-qq', 'chromium'], { env });
  if (code !== 0 || !existsSync(chromiumPath)) {
    console.error(`Could not install Chromium: run 'apt-get install -y chromium' as root and try again.`);
    return false;
  }
  return true;
}
