// Tools the test run takes from Debian: Chromium for e2e, faketime for the date sweep, OpenSSH's
// server for the bank's SFTP test (no browser or binary is downloaded from anywhere else). Install one when missing and we may;
// otherwise fail with a one-line instruction.
import { existsSync } from 'node:fs';
import { run } from './lib.mjs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** True once `path` exists, installing Debian package `name` as root when it does not. */
export async function ensureDebianTool(path, name, purpose) {
  if (existsSync(path)) return true;
  if (process.getuid?.() !== 0) {
    console.error(`${purpose} needs ${path}: run 'sudo apt-get install -y ${name}' and try again.`);
    return false;
  }
  console.log(`Installing Debian's ${name} for ${purpose} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  const code = await run('apt-get', ['install', '-y', '-qq', name], { env });
  if (code !== 0 || !existsSync(path)) {
    console.error(`Could not install ${name}: run 'apt-get install -y ${name}' as root and try again.`);
    return false;
  }
  return true;
}

export function ensureChromium() {
  return ensureDebianTool(chromiumPath, 'chromium', 'the e2e suite (or set CHROMIUM_PATH)');
}

export function ensureFaketime() {
  return ensureDebianTool('/usr/bin/faketime', 'faketime', 'the date sweep');
}

/** OpenSSH's sshd (and ssh-keygen): apps/server/test/bank-sftp.test.ts runs the bank's SFTP exchange against it on loopback. */
export async function ensureSshd() {
  return (await ensureDebianTool('/usr/sbin/sshd', 'openssh-server', 'the bank SFTP test')) && (await ensureDebianTool('/usr/bin/ssh-keygen', 'openssh-client', 'the bank SFTP test'));
}
