import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from './reliability-support.ts';

/**
 * A separate issuer process that behaves like Vipps Login (fixtures/vipps-like-issuer.mjs; what
 * it imitates and the sources are in fixtures/vipps-login-contract.md): claims at userinfo only,
 * in Vipps' names and formats, Vipps' scope names, consent that a person may withhold per scope.
 */
const script = fileURLToPath(new URL('./fixtures/vipps-like-issuer.mjs', import.meta.url));

/** A Vipps userinfo address (api_version_2): every field is there, empty when unknown. */
export interface VippsAddress {
  street_address: string;
  postal_code: string;
  region: string;
  /** Two letters: "NO". */
  country: string;
  formatted: string;
  /** home, work or other. */
  address_type: string;
}

/** Claims as Vipps Login's userinfo hands them out; the issuer refuses other names and formats. */
export interface VippsClaims {
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  /** MSISDN: country code first, no "+" ("4791234567"). */
  phone_number?: string;
  phone_number_verified?: boolean;
  address?: VippsAddress;
  other_addresses?: VippsAddress[];
  /** YYYY-MM-DD. */
  birthdate?: string;
  /** Eleven digits. */
  nin?: string;
}

/** The scopes a person can decline (openid cannot be). */
export type VippsScope = 'name' | 'email' | 'phoneNumber' | 'address' | 'birthDate' | 'nin' | 'api_version_2';

/** The scopes most merchants may ask Vipps Login for (nin needs Vipps' separate approval). */
export const VIPPS_LOGIN_SCOPE = 'openid name email phoneNumber address birthDate api_version_2';

export interface VippsPerson {
  /** Vipps gives a UUID. */
  sub: string;
  /** What the login form takes; not a claim (that is claims.email). */
  email: string;
  password: string;
  claims: VippsClaims;
  /** Scopes this person does not consent to: their claims are absent from userinfo. */
  withhold?: VippsScope[];
}

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
