import { createHash } from 'node:crypto';
import { brandPalette, NEUTRAL_BRAND, VERIFICATION_CODE_TTL_MINUTES } from '@minside/domain';

/**
 * The provider's own pages: server-rendered, Norwegian, no external assets but the title's
 * wordmark from this server. The stylesheet, the title's colours and the one script are inline
 * and allowed by their hashes in the page's CSP, so the pages need neither 'unsafe-inline' nor
 * a nonce.
 */

const css = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;min-height:100vh;background:#f6f5f1;color:#1a1a1a;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.top{background:#fff;border-top:4px solid var(--brand);border-bottom:1px solid #e2dfd6}
.top-inner{display:flex;align-items:center;justify-content:space-between;gap:1rem;width:calc(100% - 2rem);max-width:27rem;min-height:4rem;margin:0 auto;padding:.75rem 0}
.logo{display:block;height:2rem;width:auto;max-width:75%}
.product{color:#4a4a4a;font-weight:600;white-space:nowrap}
main{width:calc(100% - 2rem);max-width:27rem;margin:clamp(1.5rem,8vh,4.5rem) auto 3rem;padding:1.75rem 1.25rem;background:#fff;border:1px solid #e2dfd6;border-radius:1rem;box-shadow:0 1px 2px rgba(20,22,26,.06),0 12px 32px rgba(20,22,26,.07)}
@media (min-width:40rem){main{padding:2.5rem 2.5rem 2rem}}
h1{margin:0 0 .5rem;font:700 2rem/1.15 Georgia,"Iowan Old Style","Palatino Linotype","Times New Roman",serif}
.lead{margin:0 0 1.5rem;color:#4a4a4a}
p{margin:0 0 1rem}
label{display:block;margin:0 0 .375rem;font-weight:600}
.hint{display:block;font-weight:400;color:#5a5a5a;font-size:.9375rem}
input{display:block;width:100%;min-height:3rem;margin:0 0 1.25rem;padding:.75rem .875rem;font:inherit;color:inherit;background:#fff;border:1px solid #767676;border-radius:.5rem}
input[aria-invalid=true]{border-color:#b3261e;border-width:2px}
button{display:block;width:100%;min-height:3rem;margin-top:.5rem;padding:.75rem 1rem;font:inherit;font-weight:700;color:var(--on-brand);background:var(--brand);border:2px solid var(--brand);border-radius:999px;cursor:pointer}
button:hover{filter:brightness(1.08)}
/* One focus colour on every title, as in the portal: a red brand's ring would read as an error. */
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
a{color:var(--brand-ink);text-underline-offset:.15em}
a:hover{text-decoration-thickness:2px}
.forgot{margin:-.75rem 0 1.25rem;text-align:right}
.field-error{margin:-.125rem 0 .375rem;color:#8c1d18;font-size:.9375rem;font-weight:600}
.alert{margin:0 0 1.25rem;padding:.75rem 1rem;color:#8c1d18;background:#fdecea;border:1px solid #f1b5b0;border-radius:.5rem}
.note{margin:0 0 1.25rem;padding:.75rem 1rem;background:#f6f5f1;border-radius:.5rem}
.secondary{margin:1.25rem 0 0;text-align:center}
.actions{margin:1.5rem 0 0;padding-top:1.25rem;border-top:1px solid #e2dfd6;text-align:center}
.actions p{margin:0 0 .75rem}
.actions p:last-child{margin:0}
form+.fine{margin-top:1rem}
.fine{font-size:.875rem;color:#555}
[hidden]{display:none}
`.trim();

/** Submits the logout form by its confirm button once the page has loaded. */
const autoLogoutScript = "document.getElementById('logout').click();";

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const styleHash = sha256(css);
const autoLogoutHash = sha256(autoLogoutScript);

/**
 * The title a page is dressed as: its wordmark (served by this server, /logos) and its colour,
 * turned into readable text colours by the same rule as the portal's theme.
 */
export interface PageBrand {
  name: string;
  logoPath: string;
  brandColor: string;
}

/** The title's colours as custom properties: a second inline style, allowed by its own hash. */
function themeCss(brand: PageBrand | undefined): string {
  const palette = brandPalette(brand?.brandColor ?? NEUTRAL_BRAND);
  return `:root{--brand:${palette.brand};--on-brand:${palette.onBrand};--brand-ink:${palette.brandInk}}`;
}

function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * The CSP of a provider page. `formTargets` are origins a form on the page may end up at:
 * browsers apply form-action to the redirects after a POST too, and the login and logout
 * forms end in a redirect back to the title's Min Side. `script`: none, the auto-logout
 * script, or 'self' for oidc-provider's own responses (its form_post page appends the
 * hash of its inline script to an existing script-src). `brand`: the title the page is
 * dressed as (its colours are the page's second style).
 */
export function pageCsp(options: { formTargets?: readonly string[]; script?: 'none' | 'auto-logout' | 'provider'; brand?: PageBrand | undefined } = {}): string {
  const formAction = ["'self'", ...new Set(options.formTargets ?? [])].join(' ');
  const script = { none: "'none'", 'auto-logout': autoLogoutHash, provider: "'self'" }[options.script ?? 'none'];
  return [
    "default-src 'none'",
    `style-src ${styleHash} ${sha256(themeCss(options.brand))}`,
    `script-src ${script}`,
    "img-src 'self' data:",
    `form-action ${formAction}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function layout(title: string, body: string, brand?: PageBrand): string {
  const logo = brand ? `<img class="logo" src="${escapeHtml(brand.logoPath)}" alt="${escapeHtml(brand.name)}" height="40">` : '';
  return `<!doctype html>
<html lang="nb">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} – Min Side${brand ? ` - ${escapeHtml(brand.name)}` : ''}</title>
<style>${css}</style>
<style>${themeCss(brand)}</style>
</head>
<body>
<header class="top"><div class="top-inner">${logo}<span class="product">Min Side</span></div></header>
<main>
${body}
</main>
</body>
</html>`;
}

/** One labelled input with its message above it (GOV.UK order: label, error, field). */
function field(input: { name: string; label: string; hint?: string; attributes: string; value?: string | undefined; error?: string | undefined; autofocus?: boolean }): string {
  const describedBy = input.error ? ` aria-invalid="true" aria-describedby="${input.name}-error"` : '';
  const hint = input.hint ? ` <span class="hint">${escapeHtml(input.hint)}</span>` : '';
  return `<label for="${input.name}">${escapeHtml(input.label)}${hint}</label>
${input.error ? `<p class="field-error" id="${input.name}-error">${escapeHtml(input.error)}</p>` : ''}<input id="${input.name}" name="${input.name}" ${input.attributes}${input.value === undefined ? '' : ` value="${escapeHtml(input.value)}"`}${describedBy}${input.autofocus ? ' autofocus' : ''}>`;
}

export const loginMessages = {
  invalidCredentials: 'Feil e-post eller passord.',
  throttled: 'For mange innloggingsforsøk. Vent et minutt og prøv igjen.',
} as const;

export interface LoginPageInput {
  action: string;
  abortUrl: string;
  brand?: PageBrand | undefined;
  email?: string | undefined;
  error?: string | undefined;
  /** Where "Opprett bruker" leads; no link when the provider takes no sign-ups. */
  registerUrl?: string | undefined;
  /** Where "Glemt passord?" leads. */
  passwordResetUrl?: string | undefined;
}

/** Who the login is for: "Min Side hos Adresseavisen" on a title's host, else just "Min Side". */
const atTitle = (brand: PageBrand | undefined) => (brand ? `Min Side hos ${escapeHtml(brand.name)}` : 'Min Side');

export function loginPage(input: LoginPageInput): string {
  const invalid = input.error ? ' aria-invalid="true" aria-describedby="login-error"' : '';
  // First visit: focus the first field. After an error the e-mail is kept, so focus goes
  // where the person most likely needs to type again.
  const focusPassword = Boolean(input.error && input.email);
  return layout(
    'Logg inn',
    `<h1>Logg inn</h1>
<p class="lead">Logg inn på ${atTitle(input.brand)} for å se og endre abonnementet ditt.</p>
${input.error ? `<p class="alert" role="alert" id="login-error">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}">
<label for="email">E-post</label>
<input id="email" name="email" type="email" inputmode="email" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="320" value="${escapeHtml(input.email)}"${invalid}${focusPassword ? '' : ' autofocus'}>
<label for="password">Passord</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${invalid}${focusPassword ? ' autofocus' : ''}>
${input.passwordResetUrl ? `<p class="forgot"><a href="${escapeHtml(input.passwordResetUrl)}">Glemt passord?</a></p>` : ''}
<button type="submit">Logg inn</button>
</form>
<div class="actions">
${input.registerUrl ? `<p>Ny her? <a href="${escapeHtml(input.registerUrl)}">Opprett bruker</a></p>` : ''}
<p><a href="${escapeHtml(input.abortUrl)}">Avbryt</a></p>
</div>`,
    input.brand,
  );
}

export const registrationMessages = {
  givenNameRequired: 'Fornavn er påkrevd',
  familyNameRequired: 'Etternavn er påkrevd',
  emailRequired: 'E-post er påkrevd',
  /** SPEC §5 "E-mail". */
  invalidEmail: 'Vennligst skriv en gyldig e-postadresse',
  passwordTooShort: 'Passordet må ha minst 8 tegn',
  passwordsDiffer: 'Passordene er ikke like',
  emailTaken: 'Det finnes allerede en bruker med denne e-postadressen. Logg inn i stedet.',
  /** Issue 20: a few sign-ups an hour per address, whether or not it has a login. */
  signupThrottled: 'Det er bedt om for mange koder til denne e-postadressen. Vent en time og prøv igjen.',
} as const;

export type RegistrationField = 'givenName' | 'familyName' | 'email' | 'password' | 'passwordRepeat';

export interface RegistrationPageInput {
  action: string;
  loginUrl: string;
  brand?: PageBrand | undefined;
  values?: Partial<Record<'givenName' | 'familyName' | 'email', string>>;
  errors?: Partial<Record<RegistrationField, string>>;
  /** A message about the whole form (throttled, e-mail taken). */
  alert?: string | undefined;
}

/** "Opprett bruker": a new login at the embedded provider, signed in at once. */
export function registrationPage(input: RegistrationPageInput): string {
  const errors = input.errors ?? {};
  const firstInvalid = (['givenName', 'familyName', 'email', 'password', 'passwordRepeat'] as const).find((name) => errors[name]);
  const at = (name: RegistrationField, label: string, attributes: string, value?: string) =>
    field({ name, label, attributes, value, error: errors[name], autofocus: firstInvalid === name || (!firstInvalid && !input.alert && name === 'givenName') });
  return layout(
    'Opprett bruker',
    `<h1>Opprett bruker</h1>
<p class="lead">En bruker på ${atTitle(input.brand)}. Vi sender en kode til e-postadressen for å bekrefte at den er din.</p>
${input.alert ? `<p class="alert" role="alert">${escapeHtml(input.alert)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${at('givenName', 'Fornavn', 'type="text" autocomplete="given-name" required maxlength="100"', input.values?.givenName ?? '')}
${at('familyName', 'Etternavn', 'type="text" autocomplete="family-name" required maxlength="100"', input.values?.familyName ?? '')}
${at('email', 'E-post', 'type="email" inputmode="email" autocomplete="email" autocapitalize="none" spellcheck="false" required maxlength="320"', input.values?.email ?? '')}
${at('password', 'Passord (minst 8 tegn)', 'type="password" autocomplete="new-password" required minlength="8" maxlength="1024"')}
${at('passwordRepeat', 'Gjenta passordet', 'type="password" autocomplete="new-password" required maxlength="1024"')}
<button type="submit">Opprett bruker</button>
</form>
<div class="actions"><p>Har du allerede bruker? <a href="${escapeHtml(input.loginUrl)}">Logg inn</a></p></div>`,
    input.brand,
  );
}

export interface SignupCodePageInput {
  action: string;
  loginUrl: string;
  /** The sign-up the code belongs to (a hidden field). */
  signupId: string;
  /** Where the code went: the address the person typed. */
  email: string;
  brand?: PageBrand | undefined;
  error?: string | undefined;
}

/**
 * After "Opprett bruker" (issue 20): the address is proven with the six-digit code mailed to
 * it before any login exists. The same page whether or not the address had a login already.
 */
export function signupCodePage(input: SignupCodePageInput): string {
  const invalid = input.error ? ' aria-invalid="true" aria-describedby="code-error"' : '';
  return layout(
    'Bekreft e-postadressen',
    `<h1>Bekreft e-postadressen</h1>
<p>Vi har sendt en kode på 6 siffer til ${escapeHtml(input.email)}. Skriv den inn for å opprette brukeren. Koden virker i ${VERIFICATION_CODE_TTL_MINUTES} minutter.</p>
${input.error ? `<p class="alert" role="alert" id="code-error">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="hidden" name="signup" value="${escapeHtml(input.signupId)}">
<label for="code">Kode</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required${invalid} autofocus>
<button type="submit">Bekreft og logg inn</button>
</form>
<p class="fine">Fikk du ingen e-post? Sjekk søppelpost, eller gå tilbake og opprett brukeren på nytt. Har du allerede en bruker med denne adressen, har vi sendt deg en e-post om det i stedet.</p>
<div class="actions"><p><a href="${escapeHtml(input.loginUrl)}">Til innlogging</a></p></div>`,
    input.brand,
  );
}

export interface PasswordResetRequestPageInput {
  action: string;
  loginUrl: string;
  brand?: PageBrand | undefined;
  email?: string | undefined;
  error?: string | undefined;
  /** A message about the whole form (throttled). */
  alert?: string | undefined;
}

/** "Glemt passord?": the address the code goes to. */
export function passwordResetRequestPage(input: PasswordResetRequestPageInput): string {
  return layout(
    'Glemt passord?',
    `<h1>Glemt passord?</h1>
<p class="lead">Skriv inn e-postadressen du logger inn med. Vi sender deg en kode på 6 siffer, og med koden lager du et nytt passord.</p>
${input.alert ? `<p class="alert" role="alert">${escapeHtml(input.alert)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${field({ name: 'email', label: 'E-post', attributes: 'type="email" inputmode="email" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="320"', value: input.email ?? '', error: input.error, autofocus: !input.alert })}
<button type="submit">Send kode</button>
</form>
<div class="actions"><p><a href="${escapeHtml(input.loginUrl)}">Tilbake til innlogging</a></p></div>`,
    input.brand,
  );
}

export type PasswordResetField = 'code' | 'password' | 'passwordRepeat';

export interface PasswordResetCodePageInput {
  action: string;
  loginUrl: string;
  /** "Be om en ny kode": the request form again. */
  requestUrl: string;
  /** The reset the code belongs to (a hidden field). */
  resetId: string;
  /** The address the person typed: the code went there if it has a login. */
  email: string;
  /** The code as typed, kept when only the passwords were refused. */
  code?: string | undefined;
  brand?: PageBrand | undefined;
  errors?: Partial<Record<PasswordResetField, string>>;
}

/**
 * The code and the new password on one page. The same page whether or not the address has a
 * login: it says where a code went *if* there is a login with that address.
 */
export function passwordResetCodePage(input: PasswordResetCodePageInput): string {
  const errors = input.errors ?? {};
  const firstInvalid = (['code', 'password', 'passwordRepeat'] as const).find((name) => errors[name]) ?? 'code';
  return layout(
    'Lag nytt passord',
    `<h1>Lag nytt passord</h1>
<p class="note" role="status">Hvis det finnes en bruker med e-postadressen <strong>${escapeHtml(input.email)}</strong>, har vi sendt en kode på 6 siffer til den. Koden virker i ${VERIFICATION_CODE_TTL_MINUTES} minutter.</p>
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="hidden" name="reset" value="${escapeHtml(input.resetId)}">
<input name="email" type="email" autocomplete="username" value="${escapeHtml(input.email)}" readonly hidden>
${field({ name: 'code', label: 'Kode fra e-posten', attributes: 'type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required', value: input.code ?? '', error: errors.code, autofocus: firstInvalid === 'code' })}
${field({ name: 'password', label: 'Nytt passord', hint: 'Minst 8 tegn', attributes: 'type="password" autocomplete="new-password" required minlength="8" maxlength="1024"', error: errors.password, autofocus: firstInvalid === 'password' })}
${field({ name: 'passwordRepeat', label: 'Gjenta det nye passordet', attributes: 'type="password" autocomplete="new-password" required maxlength="1024"', error: errors.passwordRepeat, autofocus: firstInvalid === 'passwordRepeat' })}
<button type="submit">Lagre passordet og logg inn</button>
</form>
<p class="fine">Fikk du ingen e-post? Sjekk søppelpost, eller <a href="${escapeHtml(input.requestUrl)}">be om en ny kode</a>. Når passordet er endret, blir du logget ut alle andre steder.</p>
<div class="actions"><p><a href="${escapeHtml(input.loginUrl)}">Tilbake til innlogging</a></p></div>`,
    input.brand,
  );
}

export function messagePage(input: { title: string; message: string; link?: { href: string; text: string } | undefined; detail?: string | undefined }): string {
  return layout(
    input.title,
    `<h1>${escapeHtml(input.title)}</h1>
<p>${escapeHtml(input.message)}</p>
${input.detail ? `<p class="fine">${escapeHtml(input.detail)}</p>` : ''}
${input.link ? `<p class="secondary"><a href="${escapeHtml(input.link.href)}">${escapeHtml(input.link.text)}</a></p>` : ''}`,
  );
}

/**
 * RP-initiated logout. `form` is oidc-provider's hidden form (action and xsrf token, built
 * by the provider). `automatic` submits it at once: only for a request that carried a
 * valid id_token_hint, i.e. came from our relying party; anyone else's link to the logout
 * endpoint gets a page that asks first.
 */
export function logoutPage(input: { form: string; automatic: boolean; cancelUrl: string }): string {
  return layout(
    'Logg ut',
    `<h1>Logg ut</h1>
<p>${input.automatic ? 'Du logges ut av Min Side …' : 'Vil du logge ut av Min Side?'}</p>
${input.form}
<button id="logout" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Logg ut</button>
${input.automatic ? `<script>${autoLogoutScript}</script>` : `<p class="secondary"><a href="${escapeHtml(input.cancelUrl)}">Avbryt</a></p>`}`,
  );
}
