import { createHash } from 'node:crypto';
import { VERIFICATION_CODE_TTL_MINUTES } from '@minside/domain';

/**
 * The provider's own pages: server-rendered, Norwegian, no external assets. The one
 * stylesheet and the one script are inline and allowed by their hashes in the page's CSP,
 * so the pages need neither 'unsafe-inline' nor a nonce.
 */

const css = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;min-height:100vh;padding:1rem;background:#f3f3f1;color:#1a1a1a;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{width:100%;max-width:26rem;margin:clamp(1rem,10vh,6rem) auto 2rem;padding:2rem 1.5rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.12),0 8px 24px rgba(0,0,0,.06)}
@media (min-width:40rem){main{padding:2.5rem 2.25rem}}
.brand{margin:0 0 .25rem;font-size:.875rem;font-weight:600;color:#555}
h1{margin:0 0 1.5rem;font-size:1.75rem;line-height:1.2}
p{margin:0 0 1rem}
label{display:block;margin:0 0 .375rem;font-weight:600}
input{display:block;width:100%;min-height:3rem;margin:0 0 1.25rem;padding:.75rem .875rem;font:inherit;color:inherit;background:#fff;border:1px solid #767676;border-radius:.5rem}
input[aria-invalid=true]{border-color:#b3261e}
button{display:block;width:100%;min-height:3rem;padding:.75rem 1rem;font:inherit;font-weight:600;color:#fff;background:#0a58a8;border:0;border-radius:.5rem;cursor:pointer}
button:hover{background:#08467f}
:focus-visible{outline:3px solid #0a58a8;outline-offset:2px}
a{color:#0a58a8}
.field-error{margin:-.125rem 0 .375rem;color:#8c1d18;font-size:.9375rem}
.alert{margin:0 0 1.25rem;padding:.75rem 1rem;color:#8c1d18;background:#fdecea;border:1px solid #f1b5b0;border-radius:.5rem}
.secondary{margin:1.25rem 0 0;text-align:center}
.fine{font-size:.875rem;color:#555}
`.trim();

/** Submits the logout form by its confirm button once the page has loaded. */
const autoLogoutScript = "document.getElementById('logout').click();";

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const styleHash = sha256(css);
const autoLogoutHash = sha256(autoLogoutScript);

export function escapeHtml(value: unknown): string {
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
 * hash of its inline script to an existing script-src).
 */
export function pageCsp(options: { formTargets?: readonly string[]; script?: 'none' | 'auto-logout' | 'provider' } = {}): string {
  const formAction = ["'self'", ...new Set(options.formTargets ?? [])].join(' ');
  const script = { none: "'none'", 'auto-logout': autoLogoutHash, provider: "'self'" }[options.script ?? 'none'];
  return [
    "default-src 'none'",
    `style-src ${styleHash}`,
    `script-src ${script}`,
    "img-src 'self' data:",
    `form-action ${formAction}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="nb">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} – Min Side</title>
<style>${css}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const brandLine = (titleName: string | undefined) =>
  `<p class="brand">${escapeHtml(titleName ? `Min Side · ${titleName}` : 'Min Side')}</p>`;

export const loginMessages = {
  invalidCredentials: 'Feil e-post eller passord.',
  throttled: 'For mange innloggingsforsøk. Vent et minutt og prøv igjen.',
} as const;

export interface LoginPageInput {
  action: string;
  abortUrl: string;
  titleName?: string | undefined;
  email?: string | undefined;
  error?: string | undefined;
  /** Where "Opprett bruker" leads; no link when the provider takes no sign-ups. */
  registerUrl?: string | undefined;
}

export function loginPage(input: LoginPageInput): string {
  const invalid = input.error ? ' aria-invalid="true" aria-describedby="login-error"' : '';
  // First visit: focus the first field. After an error the e-mail is kept, so focus goes
  // where the person most likely needs to type again.
  const focusPassword = Boolean(input.error && input.email);
  return layout(
    'Logg inn',
    `${brandLine(input.titleName)}
<h1>Logg inn</h1>
${input.error ? `<p class="alert" role="alert" id="login-error">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}">
<label for="email">E-post</label>
<input id="email" name="email" type="email" inputmode="email" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="320" value="${escapeHtml(input.email)}"${invalid}${focusPassword ? '' : ' autofocus'}>
<label for="password">Passord</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${invalid}${focusPassword ? ' autofocus' : ''}>
<button type="submit">Logg inn</button>
</form>
${input.registerUrl ? `<p class="secondary">Ny her? <a href="${escapeHtml(input.registerUrl)}">Opprett bruker</a></p>` : ''}
<p class="secondary"><a href="${escapeHtml(input.abortUrl)}">Avbryt</a></p>`,
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
  titleName?: string | undefined;
  values?: Partial<Record<'givenName' | 'familyName' | 'email', string>>;
  errors?: Partial<Record<RegistrationField, string>>;
  /** A message about the whole form (throttled, e-mail taken). */
  alert?: string | undefined;
}

/** "Opprett bruker": a new login at the embedded provider, signed in at once. */
export function registrationPage(input: RegistrationPageInput): string {
  const errors = input.errors ?? {};
  const firstInvalid = (['givenName', 'familyName', 'email', 'password', 'passwordRepeat'] as const).find((field) => errors[field]);
  const field = (name: RegistrationField, label: string, attributes: string, value?: string) => {
    const error = errors[name];
    const described = error ? ` aria-invalid="true" aria-describedby="${name}-error"` : '';
    const focus = firstInvalid === name || (!firstInvalid && !input.alert && name === 'givenName') ? ' autofocus' : '';
    return `<label for="${name}">${escapeHtml(label)}</label>
${error ? `<p class="field-error" id="${name}-error">${escapeHtml(error)}</p>` : ''}<input id="${name}" name="${name}" ${attributes}${value === undefined ? '' : ` value="${escapeHtml(value)}"`}${described}${focus}>`;
  };
  return layout(
    'Opprett bruker',
    `${brandLine(input.titleName)}
<h1>Opprett bruker</h1>
${input.alert ? `<p class="alert" role="alert">${escapeHtml(input.alert)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${field('givenName', 'Fornavn', 'type="text" autocomplete="given-name" required maxlength="100"', input.values?.givenName ?? '')}
${field('familyName', 'Etternavn', 'type="text" autocomplete="family-name" required maxlength="100"', input.values?.familyName ?? '')}
${field('email', 'E-post', 'type="email" inputmode="email" autocomplete="email" autocapitalize="none" spellcheck="false" required maxlength="320"', input.values?.email ?? '')}
${field('password', 'Passord (minst 8 tegn)', 'type="password" autocomplete="new-password" required minlength="8" maxlength="1024"')}
${field('passwordRepeat', 'Gjenta passordet', 'type="password" autocomplete="new-password" required maxlength="1024"')}
<button type="submit">Opprett bruker</button>
</form>
<p class="secondary">Har du allerede bruker? <a href="${escapeHtml(input.loginUrl)}">Logg inn</a></p>`,
  );
}

export interface SignupCodePageInput {
  action: string;
  loginUrl: string;
  /** The sign-up the code belongs to (a hidden field). */
  signupId: string;
  /** Where the code went: the address the person typed. */
  email: string;
  titleName?: string | undefined;
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
    `${brandLine(input.titleName)}
<h1>Bekreft e-postadressen</h1>
<p>Vi har sendt en kode på 6 siffer til ${escapeHtml(input.email)}. Skriv den inn for å opprette brukeren. Koden virker i ${VERIFICATION_CODE_TTL_MINUTES} minutter.</p>
${input.error ? `<p class="alert" role="alert" id="code-error">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="hidden" name="signup" value="${escapeHtml(input.signupId)}">
<label for="code">Kode</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required${invalid} autofocus>
<button type="submit">Bekreft og logg inn</button>
</form>
<p class="fine">Fikk du ingen e-post? Sjekk søppelpost, eller gå tilbake og opprett brukeren på nytt. Har du allerede en bruker med denne adressen, har vi sendt deg en e-post om det i stedet.</p>
<p class="secondary"><a href="${escapeHtml(input.loginUrl)}">Til innlogging</a></p>`,
  );
}

export function messagePage(input: { title: string; message: string; link?: { href: string; text: string } | undefined; detail?: string | undefined }): string {
  return layout(
    input.title,
    `${brandLine(undefined)}
<h1>${escapeHtml(input.title)}</h1>
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
    `${brandLine(undefined)}
<h1>Logg ut</h1>
<p>${input.automatic ? 'Du logges ut av Min Side …' : 'Vil du logge ut av Min Side?'}</p>
${input.form}
<button id="logout" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Logg ut</button>
${input.automatic ? `<script>${autoLogoutScript}</script>` : `<p class="secondary"><a href="${escapeHtml(input.cancelUrl)}">Avbryt</a></p>`}`,
  );
}
