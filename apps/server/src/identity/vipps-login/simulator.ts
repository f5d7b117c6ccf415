// A simulator of Vipps Login (Vipps MobilePay's OpenID Connect provider), from its published
// contract: what it imitates, with the sources, is in apps/server/test/fixtures/vipps-login-contract.md.
// It serves the tests (as a separate process: test/fixtures/vipps-like-issuer.mjs) and `npm start`'s
// "Logg inn med Vipps" (in this process, on 127.0.0.1: identity/vipps-login/embedded.ts). It
// verifies no one, so production refuses it (config.ts). Written with erasable TypeScript only, so
// the test fixture's plain Node process can import it as it is.
import { generateKeyPairSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { interactionPolicy, type Adapter, type AdapterPayload, type Configuration } from 'oidc-provider';

// ── Vipps Login's scopes and the claims each one releases at userinfo ───────────────────────
const claimsByScope: Record<string, string[]> = {
  openid: ['sub', 'sid'],
  name: ['name', 'given_name', 'family_name'],
  email: ['email', 'email_verified'],
  phoneNumber: ['phone_number', 'phone_number_verified'],
  address: ['address', 'other_addresses'],
  birthDate: ['birthdate'],
  nin: ['nin'],
  // Selects the version 2 response format at Vipps; the only format this simulator has.
  api_version_2: [],
};
const knownScopes = new Set(Object.keys(claimsByScope));

/** The scopes most merchants may ask Vipps Login for (nin needs Vipps' separate approval). */
export const VIPPS_LOGIN_SCOPE = 'openid name email phoneNumber address birthDate api_version_2';

// Vipps' paths, below the issuer's origin, so that a relying party that builds URLs itself
// instead of reading the discovery document fails here as it would against Vipps.
const routes = {
  authorization: '/oauth2/auth',
  token: '/oauth2/token',
  userinfo: '/vipps-userinfo-api/userinfo',
  jwks: '/.well-known/jwks.json',
  end_session: '/oauth2/sessions/logout',
  revocation: '/oauth2/revoke',
};

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

/** Claims as Vipps Login's userinfo hands them out; the simulator refuses other names and formats. */
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

export interface VippsPerson {
  /** Vipps gives a UUID. */
  sub: string;
  /** What the simulator's login form takes (Vipps asks for the phone and the app); not a claim. */
  email: string;
  password: string;
  claims: VippsClaims;
  /** Scopes this person does not consent to: their claims are absent from userinfo. */
  withhold?: VippsScope[];
}

// ── Claims in Vipps' formats: a caller that hands in standard-OIDC formats fails at once ───────
const isString = (value: unknown): value is string => typeof value === 'string';
const isAddress = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return ['street_address', 'postal_code', 'region', 'country', 'formatted', 'address_type'].every((field) => isString(record[field])) && Object.keys(record).length === 6;
};
const claimRules: Record<string, (value: unknown) => boolean> = {
  name: isString,
  given_name: isString,
  family_name: isString,
  email: isString,
  email_verified: (value) => typeof value === 'boolean',
  // MSISDN: country code first, no "+".
  phone_number: (value) => isString(value) && /^\d{8,15}$/.test(value),
  phone_number_verified: (value) => typeof value === 'boolean',
  address: isAddress,
  other_addresses: (value) => Array.isArray(value) && value.every(isAddress),
  birthdate: (value) => isString(value) && /^\d{4}-\d{2}-\d{2}$/.test(value),
  nin: (value) => isString(value) && /^\d{11}$/.test(value),
};

/** What is wrong with a person's claims and withheld scopes; empty when all is well. */
function problemsWith(claims: unknown, withhold?: unknown): string[] {
  const problems: string[] = [];
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return ['claims must be an object'];
  for (const [name, value] of Object.entries(claims)) {
    const rule = claimRules[name];
    if (!rule) problems.push(`${name} is not a claim Vipps Login hands out`);
    else if (!rule(value)) problems.push(`${name} is not in Vipps' format: ${JSON.stringify(value)}`);
  }
  if (withhold !== undefined) {
    if (!Array.isArray(withhold)) problems.push('withhold must be a list of scopes');
    else for (const scope of withhold) if (!knownScopes.has(scope as string) || scope === 'openid') problems.push(`cannot withhold ${JSON.stringify(scope)}`);
  }
  return problems;
}

// ── Storage: in memory, for this process only ────────────────────────────────────────────────
// oidc-provider checks every artefact's expiry itself on read; what a simulator stores is small.
function memoryAdapter(): new (model: string) => Adapter {
  const store = new Map<string, AdapterPayload>();
  const byUid = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();
  return class MemoryAdapter implements Adapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }
    key(id: string): string {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload): Promise<void> {
      const key = this.key(id);
      store.set(key, payload);
      if (payload.uid) byUid.set(`${this.model}:${payload.uid}`, key);
      if (payload.grantId) byGrant.set(payload.grantId, (byGrant.get(payload.grantId) ?? new Set()).add(key));
    }
    async find(id: string): Promise<AdapterPayload | undefined> {
      return store.get(this.key(id));
    }
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const key = byUid.get(`${this.model}:${uid}`);
      return key === undefined ? undefined : store.get(key);
    }
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }
    async consume(id: string): Promise<void> {
      const payload = store.get(this.key(id));
      // oidc-provider only asks whether an artefact was consumed, never when.
      if (payload) payload.consumed = true;
    }
    async destroy(id: string): Promise<void> {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const key of byGrant.get(grantId) ?? []) store.delete(key);
      byGrant.delete(grantId);
    }
  };
}

// ── Pages ────────────────────────────────────────────────────────────────────────────────────
const escapeHtml = (text: unknown) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const style =
  'body{font-family:system-ui,sans-serif;background:#ff5b24;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center}' +
  'main{background:#fff;border-radius:16px;padding:2rem;max-width:24rem;width:calc(100% - 2rem);box-sizing:border-box}' +
  'h1{font-size:1.5rem;margin:0 0 .5rem}p{line-height:1.5}label{display:block;margin:1rem 0 .25rem;font-weight:600}' +
  'input{width:100%;box-sizing:border-box;padding:.75rem;font-size:1rem;border:1px solid #888;border-radius:8px}' +
  'button{margin-top:1.5rem;width:100%;padding:.9rem;font-size:1rem;font-weight:700;border:0;border-radius:999px;background:#ff5b24;color:#fff;cursor:pointer}' +
  '.secondary{background:#fff;color:#222;border:1px solid #888;margin-top:.75rem}.note{font-size:.875rem;color:#555}[role=alert]{color:#b00020;font-weight:600}';
const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="no"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main><style>${style}</style></body></html>`;
const loginPage = (uid: string, client: string, message?: string) =>
  page(
    'Logg inn med Vipps',
    `${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}<form method="post" action="/interaction/${escapeHtml(uid)}">` +
      `<p>${escapeHtml(client)} ber om navn, e-post, telefonnummer, adresse og fødselsdato.</p>` +
      '<label for="email">E-post</label><input id="email" name="email" type="email" autocomplete="username">' +
      '<label for="password">Passord</label><input id="password" name="password" type="password" autocomplete="current-password">' +
      '<button type="submit" name="action" value="login">Godta og logg inn</button>' +
      '<button type="submit" name="action" value="abort" class="secondary">Avbryt</button></form>' +
      '<p class="note">Simulator av Vipps Login for utvikling og test: ingen ekte Vipps-innlogging.</p>',
  );

// Seconds. Vipps' token response says expires_in 3599 (its user-info guide says ten minutes).
const ttl = { AuthorizationCode: 60, AccessToken: 3600, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 };

export interface VippsLoginSimulatorOptions {
  clientId: string;
  clientSecret: string;
  /** The registered redirect URIs (client metadata); `redirectUriAllowed` may allow more. */
  redirectUris: string[];
  /** Where the portal may send the browser back to: the registered list unless given. */
  redirectUriAllowed?: (uri: string) => boolean;
  /** The name the login page gives the portal that asks. */
  clientName?: string;
  persons: VippsPerson[];
  /** Enables POST /_control/claims (tests change a person's claims between logins). */
  controlToken?: string;
  onError?: (error: unknown) => void;
}

export interface VippsLoginSimulator {
  /** Starts listening; resolves with the issuer URL (http://host:port/). */
  listen(port: number, host: string): Promise<string>;
  /** Replaces a person's claims; `withhold`, when given, replaces the withheld scopes too. */
  setClaims(sub: string, claims: VippsClaims, withhold?: VippsScope[]): void;
  close(): Promise<void>;
}

export function createVippsLoginSimulator(options: VippsLoginSimulatorOptions): VippsLoginSimulator {
  const persons = new Map<string, Required<VippsPerson>>();
  for (const person of options.persons) {
    const problems = problemsWith(person.claims, person.withhold);
    if (problems.length) throw new Error(`Vipps Login simulator: person ${person.sub}: ${problems.join('; ')}`);
    persons.set(person.sub, { ...person, withhold: person.withhold ?? [] });
  }
  const redirectUriAllowed = options.redirectUriAllowed ?? ((uri: string) => options.redirectUris.includes(uri));
  const onError = options.onError ?? ((error: unknown) => console.error('Vipps Login simulator:', error));
  const server = createServer((req, res) => void handle(req, res));
  let provider: Provider | undefined;
  let handleOidc: ReturnType<Provider['callback']> | undefined;
  let issuer = '';

  function build(issuerUrl: string): Provider {
    // Vipps asks the user in the app at every login: an existing session never signs anyone in
    // silently, so each login sees the consent state (withheld scopes) of its time.
    const policy = interactionPolicy.base();
    policy
      .get('login')
      ?.checks.add(
        new interactionPolicy.Check('every_login_confirmed', 'Vipps asks the user at every login', (ctx) =>
          ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
        ),
      );
    const signingKey = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
    const origins = [...new Set(options.redirectUris.map((uri) => new URL(uri).origin))];
    const configuration: Configuration = {
      adapter: memoryAdapter(),
      clients: [
        {
          client_id: options.clientId,
          client_secret: options.clientSecret,
          // Vipps' default; client_secret_post is accepted too, as a sales unit may switch to it.
          token_endpoint_auth_method: 'client_secret_basic',
          grant_types: ['authorization_code'],
          response_types: ['code'],
          redirect_uris: options.redirectUris,
          post_logout_redirect_uris: origins.map((origin) => `${origin}/`),
        },
      ],
      clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
      clientBasedCORS: () => false,
      jwks: { keys: [signingKey] } as Configuration['jwks'],
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      routes,
      scopes: [...knownScopes],
      claims: claimsByScope,
      // The ID token carries sub and the token claims only; everything else is fetched at userinfo.
      conformIdTokenClaims: true,
      pkce: { required: () => true },
      // Tokens do not die with this issuer's browser session, which every login replaces.
      expiresWithSession: () => false,
      ttl: { ...ttl },
      features: {
        devInteractions: { enabled: false },
        // Not offered by Vipps Login.
        pushedAuthorizationRequests: { enabled: false },
        dPoP: { enabled: false },
        revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: async (ctx, form) => {
            ctx.type = 'html';
            ctx.body = page('Logg ut', `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Logg ut</button>`);
          },
          postLogoutSuccessSource: async (ctx) => {
            ctx.type = 'html';
            ctx.body = page('Du er logget ut', '');
          },
        },
      },
      interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: async (_ctx, sub, token) => {
        const person = persons.get(sub);
        if (!person) return undefined;
        const sessionUid = token && 'sessionUid' in token ? token.sessionUid : undefined;
        return {
          accountId: sub,
          // Read at each userinfo call, so the values are those of the moment of the call, as at Vipps.
          claims: async () => ({ ...person.claims, sub, ...(sessionUid ? { sid: sessionUid } : {}) }),
        };
      },
      renderError: async (ctx, out) => {
        ctx.type = 'html';
        ctx.body = page('Noe gikk galt', `<p>${escapeHtml(out.error)}: ${escapeHtml(out.error_description ?? '')}</p>`);
      },
    };
    const created = new Provider(issuerUrl, configuration);
    const { prototype } = created.Client;
    prototype.redirectUriAllowed = (uri: string) => redirectUriAllowed(uri);
    // The portal may send the user back to any page of its own after logout.
    prototype.postLogoutRedirectUriAllowed = (uri: string) => URL.canParse(uri) && redirectUriAllowed(new URL('/callback', uri).href);
    created.on('server_error', (_ctx: unknown, error: unknown) => onError(error));
    (created as unknown as { on(event: 'error', listener: (error: unknown) => void): void }).on('error', onError);
    return created;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
    res.end(body);
  }

  const clientName = options.clientName ?? 'Min Side';

  async function showLogin(oidcProvider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const interaction = await oidcProvider.interactionDetails(req, res);
    send(res, 200, 'text/html; charset=utf-8', loginPage(interaction.uid, clientName));
  }

  // ── Login: one form; the right password signs in and consents in one go (Vipps' consent is all or nothing) ──
  async function submitLogin(oidcProvider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const interaction = await oidcProvider.interactionDetails(req, res);
    const form = new URLSearchParams(await readBody(req));
    if (form.get('action') === 'abort') {
      await oidcProvider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user cancelled the login' }, { mergeWithLastSubmission: false });
      return;
    }
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const password = Buffer.from(form.get('password') ?? '');
    const person = [...persons.values()].find((candidate) => candidate.email.toLowerCase() === email);
    const expected = Buffer.from(person?.password ?? '');
    if (!person || password.length !== expected.length || !timingSafeEqual(password, expected)) {
      send(res, 401, 'text/html; charset=utf-8', loginPage(interaction.uid, clientName, 'Feil e-post eller passord.'));
      return;
    }
    // Whoever was signed in at this browser before is signed out: otherwise oidc-provider would
    // first ask the browser to confirm a logout when another person signs in.
    if (interaction.session) {
      const previous = await oidcProvider.Session.find(interaction.session.cookie);
      if (previous) await previous.destroy();
      delete interaction.session;
      await interaction.save(ttl.Interaction);
    }
    const requested = String(interaction.params.scope ?? '')
      .split(' ')
      .filter((scope) => knownScopes.has(scope));
    const withheld = requested.filter((scope) => (person.withhold as string[]).includes(scope));
    const grant = new oidcProvider.Grant({ accountId: person.sub, clientId: String(interaction.params.client_id) });
    grant.addOIDCScope(requested.filter((scope) => !withheld.includes(scope)).join(' '));
    if (withheld.length) {
      grant.rejectOIDCScope(withheld.join(' '));
      grant.rejectOIDCClaims(withheld.flatMap((scope) => claimsByScope[scope] ?? []));
    }
    const grantId = await grant.save();
    await oidcProvider.interactionFinished(req, res, { login: { accountId: person.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  // ── Vipps answers a scope it does not know with invalid_scope; oidc-provider would drop it ──
  function rejectsUnknownScope(url: URL, res: ServerResponse): boolean {
    const unknown = (url.searchParams.get('scope') ?? '').split(' ').filter((scope) => scope && !knownScopes.has(scope));
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    // Only to an allowed redirect URI; anything else is left to oidc-provider's own checks.
    if (unknown.length === 0 || url.searchParams.get('client_id') !== options.clientId || !redirectUriAllowed(redirectUri)) return false;
    const back = new URL(redirectUri);
    back.searchParams.set('error', 'invalid_scope');
    back.searchParams.set('error_description', `unsupported scope: ${unknown.join(' ')}`);
    const state = url.searchParams.get('state');
    if (state !== null) back.searchParams.set('state', state);
    back.searchParams.set('iss', issuer);
    send(res, 303, 'text/plain; charset=utf-8', '', { location: back.href });
    return true;
  }

  // ── Test control: replace a person's claims (and consent) between logins ───────────────────
  async function control(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const given = Buffer.from(String(req.headers['x-control-token'] ?? ''));
    const expected = Buffer.from(options.controlToken ?? '');
    if (req.method !== 'POST' || expected.length === 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      send(res, 404, 'application/json', JSON.stringify({ error: 'not_found' }));
      return;
    }
    let input: { sub?: unknown; claims?: unknown; withhold?: unknown };
    try {
      input = JSON.parse(await readBody(req)) as typeof input;
    } catch {
      send(res, 400, 'application/json', JSON.stringify({ error: 'invalid_json' }));
      return;
    }
    const person = typeof input?.sub === 'string' ? persons.get(input.sub) : undefined;
    if (!person) {
      send(res, 404, 'application/json', JSON.stringify({ error: 'unknown_sub' }));
      return;
    }
    const problems = problemsWith(input.claims, input.withhold);
    if (problems.length) {
      send(res, 400, 'application/json', JSON.stringify({ error: 'invalid_claims', problems }));
      return;
    }
    setClaims(person.sub, input.claims as VippsClaims, input.withhold as VippsScope[] | undefined);
    res.writeHead(204).end();
  }

  function setClaims(sub: string, claims: VippsClaims, withhold?: VippsScope[]): void {
    const person = persons.get(sub);
    if (!person) throw new Error(`Vipps Login simulator: no person ${sub}`);
    const problems = problemsWith(claims, withhold);
    if (problems.length) throw new Error(`Vipps Login simulator: ${problems.join('; ')}`);
    person.claims = claims;
    if (withhold !== undefined) person.withhold = withhold;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (!provider || !handleOidc) throw new Error('not listening');
      const url = new URL(req.url ?? '/', issuer);
      const interaction = /^\/interaction\/[\w-]+$/.test(url.pathname);
      if (url.pathname === '/_control/claims') await control(req, res);
      else if (interaction && req.method === 'POST') await submitLogin(provider, req, res);
      else if (interaction && req.method === 'GET') await showLogin(provider, req, res);
      else if (!(url.pathname === routes.authorization && rejectsUnknownScope(url, res))) await handleOidc(req, res);
    } catch (error) {
      // An expired or unknown interaction is the browser's problem, not the simulator's.
      const status = (error as { name?: string })?.name === 'SessionNotFound' ? 400 : 500;
      if (status === 500) onError(error);
      if (!res.headersSent) send(res, status, 'text/html; charset=utf-8', page('Noe gikk galt', `<p>${escapeHtml((error as Error)?.message ?? 'error')}</p>`));
    }
  }

  return {
    async listen(port, host) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      issuer = `http://${host}:${address.port}`;
      provider = build(issuer);
      handleOidc = provider.callback();
      return issuer;
    },
    setClaims,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
