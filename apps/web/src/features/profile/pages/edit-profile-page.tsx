import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from '../../../lib/router/index.ts';
import { emailChangeFormSchema, formatPhoneNumber, isLockedField, profileFormSchema, profileMessages, type ProfileField, type ProfileResponse } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { TextField } from '../../../components/field.tsx';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import type { ApiError } from '../../../lib/http.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { confirmEmailChange, profileQueryOptions, requestEmailChange, updateProfile } from '../api/profile.ts';
import { LoginsSection } from '../logins-section.tsx';
import { sourceHint } from '../source-hint.ts';
import { useProfileUpdate } from '../use-profile-update.ts';

const CONFIRM_PARAM = 'bekreft-epost';

/**
 * The field a refusal of the profile is about. The server words it with the field's SPEC §5
 * message (a number shaped right that is no number, libphonenumber-js), under no code of its own.
 */
function serverField(error: ApiError): 'phoneNumber' | 'birthdate' | null {
  if (error.message === profileMessages.invalidPhone) return 'phoneNumber';
  if (error.message === profileMessages.invalidBirthdate) return 'birthdate';
  return null;
}

function ProfileFormSection({ profile }: { profile: ProfileResponse }) {
  const onUpdated = useProfileUpdate();
  const details = useZodForm({
    schema: profileFormSchema,
    defaultValues: { givenName: profile.givenName, familyName: profile.familyName, phoneNumber: formatPhoneNumber(profile.phoneNumber), birthdate: profile.birthdate ?? '' },
    fieldIds: { givenName: 'given-name', familyName: 'family-name', phoneNumber: 'phone', birthdate: 'birthdate' },
    apiErrorField: serverField,
  });
  const mutation = useMutation({
    mutationFn: updateProfile,
    onSuccess: (result) => {
      onUpdated(result);
      details.reset({ ...result.profile, phoneNumber: formatPhoneNumber(result.profile.phoneNumber), birthdate: result.profile.birthdate ?? '' });
    },
    // The server's word on one field stands at that field and in the summary.
    onError: details.setApiError,
  });
  const errors = details.errors;
  const locked = (field: ProfileField) => isLockedField(profile.sources[field]);
  return (
    <Form className={`${ui.panel} ${form.form}`} onSubmit={details.handleSubmit((values) => mutation.mutate(values))} errors={details.summary} aria-labelledby="om-deg">
      <h2 id="om-deg" className={ui.panelHeading}>
        Om deg
      </h2>
      <div className={form.row}>
        <TextField
          id="given-name"
          label="Fornavn"
          autoComplete="given-name"
          hint={sourceHint(profile, 'givenName')}
          readOnly={locked('givenName')}
          error={errors.givenName}
          registration={details.register('givenName')}
        />
        <TextField
          id="family-name"
          label="Etternavn"
          autoComplete="family-name"
          hint={sourceHint(profile, 'familyName')}
          readOnly={locked('familyName')}
          error={errors.familyName}
          registration={details.register('familyName')}
        />
      </div>
      <div className={form.row}>
        <TextField
          id="phone"
          type="tel"
          label="Telefon"
          hint={sourceHint(profile, 'phoneNumber', locked('phoneNumber') ? undefined : 'Norsk nummer med 8 siffer, eller med landskode, f.eks. +46.')}
          readOnly={locked('phoneNumber')}
          autoComplete="tel"
          error={errors.phoneNumber}
          registration={details.register('phoneNumber')}
        />
        <TextField
          id="birthdate"
          type="date"
          label="Fødselsdato"
          autoComplete="bday"
          hint={sourceHint(profile, 'birthdate')}
          readOnly={locked('birthdate')}
          error={errors.birthdate}
          registration={details.register('birthdate')}
        />
      </div>
      {mutation.isSuccess && !details.isDirty ? (
        <p className={ui.success} role="status">
          Profilen er oppdatert.
        </p>
      ) : null}
      <ErrorAlert error={details.alertError(mutation.error)} />
      <div className={ui.actions}>
        <button type="submit" className={`${button.button} ${button.primary} ${ui.button}`} disabled={mutation.isPending}>
          {mutation.isPending ? 'Lagrer …' : 'Lagre endringene'}
        </button>
      </div>
    </Form>
  );
}

function EmailSection({ profile }: { profile: ProfileResponse }) {
  const [pending, setPending] = useState(profile.pendingEmail);
  const change = useZodForm({ schema: emailChangeFormSchema, defaultValues: { newEmail: '', password: '' }, fieldIds: { newEmail: 'new-email', password: 'password' } });
  const mutation = useMutation({
    mutationFn: requestEmailChange,
    onSuccess: (result) => {
      setPending(result.pendingEmail);
      change.reset({ newEmail: '', password: '' });
    },
  });
  const errors = change.errors;
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
        <Form className={form.form} onSubmit={change.handleSubmit((values) => mutation.mutate(values))} errors={change.summary}>
          <TextField id="new-email" type="email" label="Ny e-postadresse" autoComplete="email" error={errors.newEmail} registration={change.register('newEmail')} />
          <TextField
            id="password"
            type="password"
            label="Passord"
            hint="Av sikkerhetshensyn må du skrive passordet ditt på nytt."
            autoComplete="current-password"
            error={errors.password}
            registration={change.register('password')}
          />
          <ErrorAlert error={mutation.error} />
          <div className={ui.actions}>
            <button type="submit" className={`${button.button} ${button.secondary} ${ui.button}`} disabled={mutation.isPending}>
              {mutation.isPending ? 'Sender …' : 'Send bekreftelse til ny adresse'}
            </button>
          </div>
        </Form>
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
        <ErrorAlert error={confirmation.error} />
        {isPending || confirmation.isPending ? <p className={ui.muted}>Henter profilen …</p> : null}
        <ErrorAlert error={error} />
        {profile && !confirmation.isPending ? (
          <>
            <ProfileFormSection profile={profile} />
            <EmailSection key={profile.email} profile={profile} />
            <LoginsSection />
          </>
        ) : null}
        <p className={ui.muted}>
          <Link to={pathTo('contact')}>Se kontaktinformasjonen din og hvem du deler abonnementet med</Link>
        </p>
      </div>
    </Page>
  );
}
