import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { z } from 'zod';
import { logoPathOf } from '@minside/titles';
import { isValidEmail, personName } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import type { MailTitle } from '../../integrations/mail/index.ts';
import { findIdentityAccountByEmail, normalizeEmail } from './accounts.ts';
import {
  loginMessages,
  loginPage,
  messagePage,
  pageCsp,
  passwordResetCodePage,
  passwordResetRequestPage,
  registrationMessages,
  registrationPage,
  signupCodePage,
  type PageBrand,
  type PasswordResetField,
  type RegistrationField,
} from './pages.ts';
import { passwordResetMessages, type PasswordResets } from './password-reset.ts';
import { signupMessages, type Signups } from './signup.ts';
import { verifyPassword } from './password.ts';
import type { RedirectPolicy } from '../portal-origins.ts';
import type { LoginThrottle } from '../../lib/shared-state/database-login-throttle.ts';

export interface InteractionRoutesOptions {
  provider: Provider;
  db: Db;
  throttle: LoginThrottle;
  policy: RedirectPolicy;
  mountPath: string;
  homeUrl: string;
  /** Sign-ups that wait for the code mailed to their address (signup.ts). */
  signups: Signups;
  /** "Glemt passord?": codes mailed to the address, then a new password (password-reset.ts). */
  passwordResets: PasswordResets;
  /** The title a mail from this login carries (by the title code of the redirect URI's host; the fallback without one). */
  mailTitle: (titleCode: string | undefined) => MailTitle;
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

const paramsSchema = z.object({ uid: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/) });
// Oversized or missing fields are a failed login like any other, not a 400.
const loginBody = z
  .object({
    email: z.string().max(320).catch(''),
    password: z.string().max(1024).catch(''),
  })
  .catch({ email: '', password: '' });
const registrationBody = z
  .object({
    // Long enough to answer "høyst 100 tegn" for a long name; the limit itself is personName's.
    givenName: z.string().max(1000).catch(''),
    familyName: z.string().max(1000).catch(''),
    email: z.string().max(320).catch(''),
    password: z.string().max(1024).catch(''),
    passwordRepeat: z.string().max(1024).catch(''),
  })
  .catch({ givenName: '', familyName: '', email: '', password: '', passwordRepeat: '' });
const signupCodeBody = z
  .object({
    signup: z.string().max(100).catch(''),
    code: z.string().max(100).catch(''),
  })
  .catch({ signup: '', code: '' });
const passwordResetRequestBody = z.object({ email: z.string().max(320).catch('') }).catch({ email: '' });
const passwordResetCodeBody = z
  .object({
    reset: z.string().max(100).catch(''),
    email: z.string().max(320).catch(''),
    code: z.string().max(100).catch(''),
    password: z.string().max(1024).catch(''),
    passwordRepeat: z.string().max(1024).catch(''),
  })
  .catch({ reset: '', email: '', code: '', password: '', passwordRepeat: '' });
const MIN_PASSWORD_LENGTH = 8;

/** The one rule for a new password, at sign-up and at "Glemt passord?". */
function newPasswordErrors(password: string, passwordRepeat: string): Partial<Record<'password' | 'passwordRepeat', string>> {
  if ([...password].length < MIN_PASSWORD_LENGTH) return { password: registrationMessages.passwordTooShort };
  if (password !== passwordRepeat) return { passwordRepeat: registrationMessages.passwordsDiffer };
  return {};
}

/** The address field's message, if any (SPEC §5 texts). */
function emailError(email: string): string | undefined {
  const trimmed = email.trim();
  if (!trimmed) return registrationMessages.emailRequired;
  return isValidEmail(trimmed) ? undefined : registrationMessages.invalidEmail;
}

/** The names as the portal's profile takes them (issue 20: NFC, one line, at most 100 characters). */
const givenNameField = personName({ required: registrationMessages.givenNameRequired });
const familyNameField = personName({ required: registrationMessages.familyNameRequired });

/** The sign-up form's field messages (SPEC §5 "{info} er påkrevd" and the e-mail text). */
function registrationErrors(form: z.infer<typeof registrationBody>): Partial<Record<RegistrationField, string>> {
  const errors: Partial<Record<RegistrationField, string>> = {};
  const givenName = givenNameField.safeParse(form.givenName);
  if (!givenName.success) errors.givenName = givenName.error.issues[0]?.message ?? registrationMessages.givenNameRequired;
  const familyName = familyNameField.safeParse(form.familyName);
  if (!familyName.success) errors.familyName = familyName.error.issues[0]?.message ?? registrationMessages.familyNameRequired;
  const email = emailError(form.email);
  if (email) errors.email = email;
  return { ...errors, ...newPasswordErrors(form.password, form.passwordRepeat) };
}

// The CSP a page needs is only known in the handler; the app-wide onSend hook would
// overwrite a header set there, so the value waits here for this plugin's own hook.
const pagePolicies = new WeakMap<FastifyReply, string>();

function sendPage(reply: FastifyReply, status: number, html: string, csp: string): FastifyReply {
  pagePolicies.set(reply, csp);
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/**
 * The login interaction of the embedded provider: oidc-provider sends the browser to
 * `<mount>/interaction/:uid`; we show the form, check the password and hand the result
 * back to oidc-provider, which continues the authorization request. The interaction is
 * bound to the browser by oidc-provider's interaction cookie, which is also the CSRF
 * protection: a forged POST has no cookie and finds no interaction.
 */
export async function interactionRoutes(app: FastifyInstance, options: InteractionRoutesOptions): Promise<void> {
  const { provider, db, throttle, policy, mountPath, homeUrl, signups, passwordResets, mailTitle } = options;
  // Forms are parsed only here: the API stays JSON-only (text/plain and forms get 415 there).
  app.removeAllContentTypeParsers();
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  // HTML pages of the login flow, not the JSON API: left out of the OpenAPI document (/api/docs).
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });

  app.addHook('onSend', async (_request, reply) => {
    const csp = pagePolicies.get(reply);
    if (csp) reply.header('content-security-policy', csp);
  });

  // These are browser pages: errors are pages too, not the API's JSON.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const clientError = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500;
    if (!clientError) request.log.error({ err: error }, 'login page failed');
    const page = messagePage({
      title: 'Noe gikk galt',
      message: clientError ? 'Vi kunne ikke lese skjemaet. Gå tilbake og prøv igjen.' : 'Det oppstod en feil hos oss. Prøv igjen om litt.',
      link: { href: homeUrl, text: 'Til Min Side' },
    });
    return sendPage(reply, clientError ? (error.statusCode ?? 400) : 500, page, pageCsp());
  });

  const loginAction = (uid: string) => `${mountPath}/interaction/${uid}/login`;
  const registerUrl = (uid: string) => `${mountPath}/interaction/${uid}/register`;
  const signupCodeUrl = (uid: string) => `${mountPath}/interaction/${uid}/register/code`;
  const abortUrl = (uid: string) => `${mountPath}/interaction/${uid}/abort`;
  const loginUrl = (uid: string) => `${mountPath}/interaction/${uid}`;
  const passwordResetUrl = (uid: string) => `${mountPath}/interaction/${uid}/password`;
  const passwordResetCodeUrl = (uid: string) => `${mountPath}/interaction/${uid}/password/code`;
  const redirectUriOf = (interaction: Interaction) => (typeof interaction.params.redirect_uri === 'string' ? interaction.params.redirect_uri : undefined);

  /** The title of the login: the one whose host the redirect URI is on (none for PUBLIC_URL or localhost). */
  const titleOf = (interaction: Interaction) => {
    const redirectUri = redirectUriOf(interaction);
    return redirectUri ? policy.titleOf(redirectUri) : undefined;
  };
  /** The title a mail from this login carries (the fallback title on a host of no title). */
  const mailTitleOf = (interaction: Interaction) => mailTitle(titleOf(interaction)?.titleCode);

  /**
   * Sends one of the login's pages: dressed as the login's title (its wordmark and colours),
   * with a CSP that allows exactly that page's styles and lets its form end at the client's
   * redirect origin.
   */
  function sendInteractionPage(reply: FastifyReply, interaction: Interaction, status: number, render: (brand: PageBrand | undefined) => string) {
    const title = titleOf(interaction);
    const brand = title ? { name: title.name, logoPath: logoPathOf(title), brandColor: title.brandColor } : undefined;
    const redirectUri = redirectUriOf(interaction);
    return sendPage(reply, status, render(brand), pageCsp({ formTargets: redirectUri ? [new URL(redirectUri).origin] : [], brand }));
  }

  function renderLogin(reply: FastifyReply, interaction: Interaction, status: number, input: { email?: string; error?: string } = {}) {
    const { uid } = interaction;
    return sendInteractionPage(reply, interaction, status, (brand) =>
      loginPage({ action: loginAction(uid), abortUrl: abortUrl(uid), registerUrl: registerUrl(uid), passwordResetUrl: passwordResetUrl(uid), brand, ...input }),
    );
  }

  function renderRegistration(reply: FastifyReply, interaction: Interaction, status: number, input: Omit<Parameters<typeof registrationPage>[0], 'action' | 'loginUrl' | 'brand'> = {}) {
    return sendInteractionPage(reply, interaction, status, (brand) => registrationPage({ action: registerUrl(interaction.uid), loginUrl: loginUrl(interaction.uid), brand, ...input }));
  }

  function renderSignupCode(reply: FastifyReply, interaction: Interaction, status: number, input: { signupId: string; email: string; error?: string }) {
    return sendInteractionPage(reply, interaction, status, (brand) => signupCodePage({ action: signupCodeUrl(interaction.uid), loginUrl: loginUrl(interaction.uid), brand, ...input }));
  }

  function renderPasswordResetRequest(reply: FastifyReply, interaction: Interaction, status: number, input: { email?: string; error?: string; alert?: string } = {}) {
    return sendInteractionPage(reply, interaction, status, (brand) => passwordResetRequestPage({ action: passwordResetUrl(interaction.uid), loginUrl: loginUrl(interaction.uid), brand, ...input }));
  }

  function renderPasswordResetCode(
    reply: FastifyReply,
    interaction: Interaction,
    status: number,
    input: { resetId: string; email: string; code?: string; errors?: Partial<Record<PasswordResetField, string>> },
  ) {
    const { uid } = interaction;
    return sendInteractionPage(reply, interaction, status, (brand) =>
      passwordResetCodePage({ action: passwordResetCodeUrl(uid), loginUrl: loginUrl(uid), requestUrl: passwordResetUrl(uid), brand, ...input }),
    );
  }

  function renderExpired(reply: FastifyReply) {
    return sendPage(
      reply,
      400,
      messagePage({
        title: 'Innloggingen er utløpt',
        message: 'Innloggingen tok for lang tid eller er allerede fullført. Gå tilbake til siden du kom fra og prøv igjen.',
        link: { href: homeUrl, text: 'Til Min Side' },
      }),
      pageCsp(),
    );
  }

  /** The interaction this browser is in, if it is the one in the URL. */
  async function interactionFor(request: FastifyRequest, reply: FastifyReply): Promise<Interaction | undefined> {
    const params = paramsSchema.safeParse(request.params);
    if (!params.success) return undefined;
    try {
      const interaction = await provider.interactionDetails(request.raw, reply.raw);
      return interaction.uid === params.data.uid ? interaction : undefined;
    } catch (error) {
      if (error instanceof errors.SessionNotFound) return undefined;
      throw error;
    }
  }

  /** Hands the result to oidc-provider and sends the browser back to it to continue. */
  async function finish(request: FastifyRequest, reply: FastifyReply, result: Parameters<Provider['interactionResult']>[2]) {
    // interactionResult + reply.redirect is interactionFinished without writing to the raw
    // response behind Fastify's back.
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  app.get('/interaction/:uid', async (request, reply) => {
    const interaction = await interactionFor(request, reply);
    if (!interaction) return renderExpired(reply);
    if (interaction.prompt.name === 'login') return renderLogin(reply, interaction, 200);
    return finish(request, reply, { consent: { grantId: await grantFor(provider, interaction) } });
  });

  app.post('/interaction/:uid/login', async (request, reply) => {
    const interaction = await interactionFor(request, reply);
    if (!interaction) return renderExpired(reply);
    if (interaction.prompt.name !== 'login') return reply.redirect(`${mountPath}/interaction/${interaction.uid}`, 303);

    const form = loginBody.parse(request.body);
    const email = normalizeEmail(form.email);
    const ip = request.ip;
    const attempt = await throttle.begin(email, ip);
    if (attempt.blocked) {
      request.log.warn({ ip }, 'login throttled');
      return renderLogin(reply, interaction, 429, { email: form.email, error: loginMessages.throttled });
    }

    const account = email ? await findIdentityAccountByEmail(db, email) : undefined;
    // verifyPassword runs a full hash for an unknown e-mail too: no enumeration by timing.
    const valid = await verifyPassword(form.password, account?.passwordHash);
    // An address never proven is no login (issue 20): refused like a wrong password.
    if (!valid || !account || !account.emailVerified) {
      return renderLogin(reply, interaction, 401, { email: form.email, error: loginMessages.invalidCredentials });
    }
    await attempt.succeeded();
    return finish(request, reply, { login: { accountId: account.id } });
  });

  app.get('/interaction/:uid/register', async (request, reply) => {
    const interaction = await interactionFor(request, reply);
    if (!interaction) return renderExpired(reply);
    if (interaction.prompt.name !== 'login') return reply.redirect(`${mountPath}/interaction/${interaction.uid}`, 303);
    return renderRegistration(reply, interaction, 200);
  });

  app.post('/interaction/:uid/register', async (request, reply) => {
    const interaction = await interactionFor(request, reply);
    if (!interaction) return renderExpired(reply);
    if (interaction.prompt.name !== 'login') return reply.redirect(`${mountPath}/interaction/${interaction.uid}`, 303);

    const form = registrationBody.parse(request.body);
    const values = { givenName: form.givenName, familyName: form.familyName, email: form.email };
    const errors = registrationErrors(form);
    if (Object.keys(errors).length > 0) return renderRegistration(reply, interaction, 400, { values, errors });

    // Sign-ups have their own per-IP budget (keys "ip:signup:…"): no bulk account creation, and a
    // busy shared address (a school, an office) signing people up does not block their logins.
    const attempt = await throttle.begin(`signup:${normalizeEmail(form.email)}`, `signup:${request.ip}`);
    if (attempt.blocked) return renderRegistration(reply, interaction, 429, { values, alert: loginMessages.throttled });
    // No login yet (issue 20): a code goes to the address, and only that code makes the login.
    // A taken address gets the very same page; its owner is told by e-mail instead.
    const signup = await signups.start({
      interactionUid: interaction.uid,
      email: form.email,
      password: form.password,
      givenName: givenNameField.parse(form.givenName),
      familyName: familyNameField.parse(form.familyName),
      title: mailTitleOf(interaction),
    });
    if ('throttled' in signup) return renderRegistration(reply, interaction, 429, { values, alert: registrationMessages.signupThrottled });
    return renderSignupCode(reply, interaction, 200, { signupId: signup.id, email: signup.email });
  });

  app.post('/interaction/:uid/register/code', async (request, reply) => {
    const interaction = await interactionFor(request, reply);
    if (!interaction) return renderExpired(reply);
    if (interaction.prompt.name !== 'login') return reply.redirect(`${mountPath}/interaction/${interaction.uid}`, 303);
    const form = signupCodeBody.parse(request.body);
    const outcome = await signups.verify({ interactionUid: interaction.uid, id: form.signup, code: form.code });
    switch (outcome.status) {
      case 'ok':
        request.log.info({ accountId: outcome.account.id }, 'identity account created with a proven address');
        return finish(request, reply, { login: { accountId: outcome.account.id } });
      case 'wrong':
        return renderSignupCode(reply, interaction, 400, {
          signupId: form.signup,
          email: outcome.email,
          error: outcome.attemptsLeft > 0 ? signupMessages.codeWrong(outcome.attemptsLeft) : signupMessages.codeInvalid,
        });
      case 'taken':
        // The code proved the mailbox, so the owner of the address may be told.
        return renderRegistration(reply, interaction, 409, { values: { email: outcome.email }, errors: { email: registrationMessages.emailTaken } });
      case 'invalid':
        if (outcome.email === undefined) return renderExpired(reply);
        return renderSignupCode(reply, interaction, 400, { signupId: form.signup, email: outcome.email, error: signupMessages.codeInvalid });
    }
  });

  app.get('/interaction/:uid/password', async (request, reply) => {
    const interaction = await interactionFor(request, reply);
    if (!interaction) return renderExpired(reply);
    if (interaction.prompt.name !== 'login') return reply.redirect(loginUrl(interaction.uid), 303);
    return renderPasswordResetRequest(reply, interaction, 200);
  });

  app.post('/interaction/:uid/password', async (request, reply) => {
    const interaction = await interactionFor(request, reply);
    if (!interaction) return renderExpired(reply);
    if (interaction.prompt.name !== 'login') return reply.redirect(loginUrl(interaction.uid), 303);
    const { email } = passwordResetRequestBody.parse(request.body);
    const error = emailError(email);
    if (error) return renderPasswordResetRequest(reply, interaction, 400, { email, error });
    // Its own budget per address and per IP (keys "…:reset:…"), apart from logins and sign-ups.
    const attempt = await throttle.begin(`reset:${normalizeEmail(email)}`, `reset:${request.ip}`);
    if (attempt.blocked) return renderPasswordResetRequest(reply, interaction, 429, { email, alert: passwordResetMessages.throttled });
    // The same answer whether or not the address has a login: a code goes out only if it has.
    const reset = await passwordResets.start({ interactionUid: interaction.uid, email, title: mailTitleOf(interaction) });
    if ('throttled' in reset) return renderPasswordResetRequest(reply, interaction, 429, { email, alert: passwordResetMessages.tooManyCodes });
    return renderPasswordResetCode(reply, interaction, 200, { resetId: reset.id, email: reset.email });
  });

  app.post('/interaction/:uid/password/code', async (request, reply) => {
    const interaction = await interactionFor(request, reply);
    if (!interaction) return renderExpired(reply);
    if (interaction.prompt.name !== 'login') return reply.redirect(loginUrl(interaction.uid), 303);
    const form = passwordResetCodeBody.parse(request.body);
    const page = { resetId: form.reset, email: normalizeEmail(form.email) };
    // What can be checked without the code spends none of its tries.
    const errors: Partial<Record<PasswordResetField, string>> = {
      ...(form.code.trim() ? {} : { code: passwordResetMessages.codeRequired }),
      ...newPasswordErrors(form.password, form.passwordRepeat),
    };
    if (Object.keys(errors).length > 0) return renderPasswordResetCode(reply, interaction, 400, { ...page, code: form.code.trim(), errors });
    // Guessing codes and hashing new passwords share the IP's reset budget.
    const attempt = await throttle.begin(`reset-code:${form.reset}`, `reset:${request.ip}`);
    if (attempt.blocked) return renderPasswordResetCode(reply, interaction, 429, { ...page, errors: { code: passwordResetMessages.throttled } });
    const outcome = await passwordResets.complete({ interactionUid: interaction.uid, id: form.reset, code: form.code, password: form.password, title: mailTitleOf(interaction) });
    switch (outcome.status) {
      case 'ok':
        request.log.info({ accountId: outcome.accountId }, 'identity account password reset by a mailed code');
        return finish(request, reply, { login: { accountId: outcome.accountId } });
      case 'wrong':
        return renderPasswordResetCode(reply, interaction, 400, {
          resetId: form.reset,
          email: outcome.email,
          errors: { code: outcome.attemptsLeft > 0 ? passwordResetMessages.codeWrong(outcome.attemptsLeft) : passwordResetMessages.codeInvalid },
        });
      case 'invalid':
        // Not this browser's reset: nothing of it is shown, the person starts again.
        if (outcome.email === undefined) return renderPasswordResetRequest(reply, interaction, 400, { alert: passwordResetMessages.codeInvalid });
        return renderPasswordResetCode(reply, interaction, 400, { resetId: form.reset, email: outcome.email, errors: { code: passwordResetMessages.codeInvalid } });
    }
  });

  app.get('/interaction/:uid/abort', async (request, reply) => {
    const interaction = await interactionFor(request, reply);
    if (!interaction) return renderExpired(reply);
    return finish(request, reply, { error: 'access_denied', error_description: 'End-User aborted interaction' });
  });
}

/**
 * A consent prompt should not happen (loadExistingGrant covers every request of our
 * first-party client), but if oidc-provider asks, the answer is the same: grant what is missing.
 */
async function grantFor(provider: Provider, interaction: Interaction): Promise<string> {
  const accountId = interaction.session?.accountId;
  const clientId = typeof interaction.params.client_id === 'string' ? interaction.params.client_id : undefined;
  const grant = interaction.grantId ? await provider.Grant.find(interaction.grantId) : new provider.Grant({ accountId, clientId });
  if (!grant) throw new Error('grant of the interaction not found');
  const details = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  if (details.missingOIDCScope?.length) grant.addOIDCScope(details.missingOIDCScope);
  if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
  return grant.save();
}
