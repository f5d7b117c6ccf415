import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { emailChangeFormSchema, formatPhoneNumber, profileFormSchema, type EmailChangeForm, type ProfileForm, type ProfileResponse } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import form from '../../../components/form.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { confirmEmailChange, profileQueryOptions, requestEmailChange, updateProfile } from '../api/profile.ts';
import { useProfileUpdate } from '../use-profile-update.ts';
import { Field } from '../components/field.tsx';

const CONFIRM_PARAM = 'bekreft-epost';

function errorText(error: unknown): string {
  return isApiError(error) ? error.message : 'Noe gikk galt. Prøv igjen om litt.';
}

function ProfileFormSection({ profile }: { profile: ProfileResponse }) {
  const onUpdated = useProfileUpdate();
  const { register, handleSubmit, formState, reset } = useForm<ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { givenName: profile.givenName, familyName: profile.familyName, phoneNumber: formatPhoneNumber(profile.phoneNumber), birthdate: profile.birthdate ?? '' },
  });
  const mutation = useMutation({
    mutationFn: updateProfile,
    onSuccess: (result) => {
      onUpdated(result);
      reset({ ...result.profile, phoneNumber: formatPhoneNumber(result.profile.phoneNumber), birthdate: result.profile.birthdate ?? '' });
    },
  });
  const errors = formState.errors;
  return (
    <form className={`${ui.panel} ${form.form}`} noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))} aria-labelledby="om-deg">
      <h2 id="om-deg" className={ui.panelHeading}>
        Om deg
      </h2>
      <div className={form.row}>
        <Field id="given-name" label="Fornavn" error={errors.givenName?.message} input={<input id="given-name" className={form.input} autoComplete="given-name" aria-invalid={errors.givenName ? true : undefined} aria-describedby={errors.givenName ? 'given-name-error' : undefined} {...register('givenName')} />} />
        <Field id="family-name" label="Etternavn" error={errors.familyName?.message} input={<input id="family-name" className={form.input} autoComplete="family-name" aria-invalid={errors.familyName ? true : undefined} aria-describedby={errors.familyName ? 'family-name-error' : undefined} {...register('familyName')} />} />
      </div>
      <div className={form.row}>
        <Field id="phone" label="Telefon" hint="Norsk nummer med 8 siffer, eller med landskode, f.eks. +46." error={errors.phoneNumber?.message} input={<input id="phone" type="tel" className={form.input} autoComplete="tel" aria-invalid={errors.phoneNumber ? true : undefined} aria-describedby={errors.phoneNumber ? 'phone-error' : 'phone-hint'} {...register('phoneNumber')} />} />
        <Field id="birthdate" label="Fødselsdato" error={errors.birthdate?.message} input={<input id="birthdate" type="date" className={form.input} autoComplete="bday" aria-invalid={errors.birthdate ? true : undefined} aria-describedby={errors.birthdate ? 'birthdate-error' : undefined} {...register('birthdate')} />} />
      </div>
      {mutation.isSuccess && !formState.isDirty ? (
        <p className={ui.success} role="status">
          Profilen er oppdatert.
        </p>
      ) : null}
      {mutation.error ? (
        <p className={ui.alert} role="alert">
          {errorText(mutation.error)}
        </p>
      ) : null}
      <div className={ui.actions}>
        <button type="submit" className={`${button.button} ${button.primary} ${ui.button}`} disabled={mutation.isPending}>
          {mutation.isPending ? 'Lagrer …' : 'Lagre endringene'}
        </button>
      </div>
    </form>
  );
}

function EmailSection({ profile }: { profile: ProfileResponse }) {
  const [pending, setPending] = useState(profile.pendingEmail);
  const { register, handleSubmit, formState, reset } = useForm<EmailChangeForm>({ resolver: zodResolver(emailChangeFormSchema), defaultValues: { newEmail: '', password: '' } });
  const mutation = useMutation({
    mutationFn: requestEmailChange,
    onSuccess: (result) => {
      setPending(result.pendingEmail);
      reset({ newEmail: '', password: '' });
    },
  });
  const errors = formState.errors;
  return (
    <section className={`${ui.panel} ${form.form}`} aria-labelledby="e-post">
      <h2 id="e-post" className={ui.panelHeading}>
        E-postadresse
      </h2>
      <p className={ui.text}>
        Du logger inn med <strong>{profile.email}</strong>.
      </p>
      {pending ? (
        <p className={ui.success} role="status">
          Vi har sendt en lenke til {pending}. Åpne den for å bekrefte den nye adressen. Til da logger du inn med {profile.email}.
        </p>
      ) : null}
      {profile.emailChangeHere ? (
        <form className={form.form} noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
          <Field id="new-email" label="Ny e-postadresse" error={errors.newEmail?.message} input={<input id="new-email" type="email" className={form.input} autoComplete="email" aria-invalid={errors.newEmail ? true : undefined} aria-describedby={errors.newEmail ? 'new-email-error' : undefined} {...register('newEmail')} />} />
          <Field
            id="password"
            label="Passord"
            hint="Av sikkerhetshensyn må du skrive passordet ditt på nytt."
            error={errors.password?.message}
            input={<input id="password" type="password" className={form.input} autoComplete="current-password" aria-invalid={errors.password ? true : undefined} aria-describedby={errors.password ? 'password-error' : 'password-hint'} {...register('password')} />}
          />
          {mutation.error ? (
            <p className={ui.alert} role="alert">
              {errorText(mutation.error)}
            </p>
          ) : null}
          <div className={ui.actions}>
            <button type="submit" className={`${button.button} ${button.secondary} ${ui.button}`} disabled={mutation.isPending}>
              {mutation.isPending ? 'Sender …' : 'Send bekreftelse til ny adresse'}
            </button>
          </div>
        </form>
      ) : (
        <p className={ui.muted}>E-postadressen endrer du hos innloggingstjenesten.</p>
      )}
    </section>
  );
}

/** Follows the link from the confirmation mail (?bekreft-epost=…) once, then takes the token out of the address. */
function useEmailConfirmation() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const onUpdated = useProfileUpdate();
  const token = params.get(CONFIRM_PARAM);
  const started = useRef(false);
  const mutation = useMutation({ mutationFn: confirmEmailChange, onSuccess: onUpdated });
  const { mutate } = mutation;
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    mutate(token);
    void navigate(pathTo('editProfile'), { replace: true });
  }, [token, mutate, navigate]);
  return mutation;
}

/** SPEC §2 /endre-profil: name, phone, birthdate, and a confirmed e-mail change. */
export function EditProfilePage() {
  const confirmation = useEmailConfirmation();
  const { data: profile, error, isPending } = useQuery(profileQueryOptions());
  return (
    <Page title={pages.editProfile.title} lead="Hold kontaktinformasjonen din oppdatert, så når vi deg om levering og abonnement.">
      <div className={`${ui.stack} ${ui.narrow}`}>
        {confirmation.isSuccess ? (
          <p className={ui.success} role="status">
            E-postadressen er endret til {confirmation.data.user.email}. Bruk den når du logger inn.
          </p>
        ) : null}
        {confirmation.error ? (
          <p className={ui.alert} role="alert">
            {errorText(confirmation.error)}
          </p>
        ) : null}
        {isPending || confirmation.isPending ? <p className={ui.muted}>Henter profilen …</p> : null}
        {error ? (
          <p className={ui.alert} role="alert">
            {errorText(error)}
          </p>
        ) : null}
        {profile && !confirmation.isPending ? (
          <>
            <ProfileFormSection profile={profile} />
            <EmailSection key={profile.email} profile={profile} />
          </>
        ) : null}
        <p className={ui.muted}>
          <Link to={pathTo('contact')}>Se kontaktinformasjonen din og hvem du deler abonnementet med</Link>
        </p>
      </div>
    </Page>
  );
}
