import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from './server-process.ts';

/**
 * A separate issuer process that behaves like Vipps Login (fixtures/vipps-like-issuer.mjs; what
 * it imitates and the sources are in fixtures/vipps-login-contract.md): claims at userinfo only,
 * in Vipps' names and formats, Vipps' scope names, consent that a person may withhold per scope.
 */
const script = fileURLToPath(new URL('./fixtures/vipps-like-issuer.mjs', import.meta.url));

export { VIPPS_LOGIN_SCOPE, type VippsClaims, type VippsPerson } from '../src/identity/vipps-login/simulator.ts';
import type { VippsClaims, VippsPerson, VippsScope } from '../src/identity/vipps-login/simulator.ts';

export interface VippsLikeIssuer {
  /** http://127.0.0.1:PORT, for discovery. */
  issuer: string;
  /** Replaces a person's claims; `withhold`, when given, replaces the withheld scopes too. Applies to userinfo calls from now on. */
  setClaims(sub: string, claims: VippsClaims, withhold?: VippsScope[]): Promise<void>;
  stop(): void;
}

export async function startVippsLikeIssuer(options: { clientId: string; clientSecret: string; redirectUris: string[]; persons: VippsPerson[] }): Promise<VippsLikeIssuer> {
  const controlToken = randomBytes(24).toString('base64url');
  // The port is free when asked, not necessarily when the child binds it: try again if it was taken meanwhile.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await spawnIssuer(port, controlToken, options);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function spawnIssuer(port: number, controlToken: string, options: Parameters<typeof startVippsLikeIssuer>[0]): Promise<VippsLikeIssuer> {
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      PORT: String(port),
      CLIENT_ID: options.clientId,
      CLIENT_SECRET: options.clientSecret,
      REDIRECT_URIS: options.redirectUris.join(','),
      PERSONS: JSON.stringify(options.persons),
      CONTROL_TOKEN: controlToken,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A test run that ends without stop() must not leave the issuer behind.
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);

  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the Vipps-like issuer did not start within 20 s: ${stderr}`)), 20_000);
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.split('\n').includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the Vipps-like issuer exited (${code}) before it was ready: ${stderr}`));
      });
    });
  } catch (error) {
    killChild();
    process.off('exit', killChild);
    throw error;
  }

  const issuer = `http://127.0.0.1:${port}`;
  return {
    issuer,
    async setClaims(sub, claims, withhold) {
      const response = await fetch(`${issuer}/_control/claims`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-control-token': controlToken },
        body: JSON.stringify({ sub, claims, ...(withhold === undefined ? {} : { withhold }) }),
      });
      if (response.status !== 204) throw new Error(`setClaims(${sub}) answered ${response.status}: ${await response.text()}`);
    },
    stop() {
      killChild();
      process.off('exit', killChild);
    },
  };
}
