import { useId } from 'react';
import { deliveryAddressInputSchema, type DeliveryAddress, type DeliveryAddressInput } from '@minside/domain';
import { isApiError } from '../../../lib/http.ts';
import { usePostalCodeTown } from '../api/lookup-postal-code.ts';
import form from '../../../components/form.module.css';
import grid from './address-form.module.css';

/** What the address fields hold while typing: all strings. */
export type AddressValues = Record<'name' | 'coName' | 'street' | 'streetNumber' | 'apartment' | 'floor' | 'postalCode', string>;
export type AddressErrors = Partial<Record<keyof AddressValues, string>>;

export const emptyAddress: AddressValues = { name: '', coName: '', street: '', streetNumber: '', apartment: '', floor: '', postalCode: '' };

export function addressValuesOf(address: DeliveryAddress | null | undefined): AddressValues {
  if (!address) return emptyAddress;
  return {
    name: address.name,
    coName: address.coName ?? '',
    street: address.street,
    streetNumber: address.streetNumber,
    apartment: address.apartment ?? '',
    floor: address.floor ?? '',
    postalCode: address.postalCode,
  };
}

/** Validates with the same schema as the server: SPEC §5 messages, field by field. */
export function validateAddress(values: AddressValues): { address: DeliveryAddressInput | null; errors: AddressErrors } {
  const result = deliveryAddressInputSchema.safeParse(values);
  if (result.success) return { address: result.data, errors: {} };
  const errors: AddressErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof AddressValues;
    errors[field] ??= issue.message;
  }
  return { address: null, errors };
}

/** The id of an address field's input under `idPrefix` (AddressFields). */
const addressFieldId = (idPrefix: string, name: keyof AddressValues) => `${idPrefix}-${name}`;

/** The address errors by the ids of their inputs, in the fields' order, for a form's error summary. */
export function addressErrorsById(idPrefix: string, errors: AddressErrors): Record<string, string | undefined> {
  const order: (keyof AddressValues)[] = ['name', 'coName', 'street', 'streetNumber', 'apartment', 'floor', 'postalCode'];
  return Object.fromEntries(order.map((name) => [addressFieldId(idPrefix, name), errors[name]]));
}

interface FieldProps {
  idPrefix: string;
  name: keyof AddressValues;
  label: string;
  optional?: boolean;
  autoComplete?: string;
  inputMode?: 'numeric' | 'text';
  maxLength?: number;
  /** Columns of six on wide screens. */
  span: 2 | 3 | 4 | 6;
  values: AddressValues;
  errors: AddressErrors;
  onChange: (name: keyof AddressValues, value: string) => void;
}

function Field({ idPrefix, name, label, optional, autoComplete, inputMode, maxLength, span, values, errors, onChange }: FieldProps) {
  const id = addressFieldId(idPrefix, name);
  const error = errors[name];
  return (
    <div className={`${form.field} ${grid[`span${span}`]}`}>
      <label className={form.label} htmlFor={id}>
        {label} {optional ? <span className={form.optional}>(valgfritt)</span> : null}
      </label>
      <input
        id={id}
        className={form.input}
        name={name}
        value={values[name]}
        onChange={(event) => onChange(name, event.target.value)}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} className={form.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface AddressFieldsProps {
  /** Put before each field's name in its id (default a generated one); a form's error summary links to them. */
  idPrefix?: string;
  values: AddressValues;
  errors: AddressErrors;
  onChange: (name: keyof AddressValues, value: string) => void;
}

/** SPEC §3 delivery address: name, c/o, street, number, flat, floor, postal code; the town is looked up. */
export function AddressFields({ idPrefix, values, errors, onChange }: AddressFieldsProps) {
  const generated = useId();
  const prefix = idPrefix ?? generated;
  const townId = `${prefix}-town`;
  const postalCode = values.postalCode.trim();
  const lookup = usePostalCodeTown(postalCode);
  const unknown = isApiError(lookup.error) && lookup.error.status === 404;
  const town = /^\d{4}$/.test(postalCode) ? (lookup.data?.town ?? '') : '';
  const postalError = errors.postalCode ?? (unknown ? lookup.error?.message : undefined);
  const common = { idPrefix: prefix, values, errors: { ...errors, postalCode: postalError }, onChange };

  return (
    <div className={grid.addressGrid}>
      <Field name="name" label="Navn" autoComplete="name" span={6} {...common} />
      <Field name="coName" label="c/o" optional span={6} {...common} />
      <Field name="street" label="Adresse" autoComplete="address-line1" span={4} {...common} />
      <Field name="streetNumber" label="Gatenummer" maxLength={10} span={2} {...common} />
      <Field name="apartment" label="Leilighetsnummer" optional maxLength={10} span={3} {...common} />
      <Field name="floor" label="Etasje" optional maxLength={10} span={3} {...common} />
      <Field name="postalCode" label="Postnummer" autoComplete="postal-code" inputMode="numeric" maxLength={4} span={2} {...common} />
      <div className={`${form.field} ${grid.span4}`}>
        <label className={form.label} htmlFor={townId}>
          Poststed
        </label>
        <input id={townId} className={form.input} value={lookup.isFetching ? 'Henter …' : town} readOnly aria-live="polite" />
        <p className={form.hint}>Fylles ut fra postnummeret.</p>
      </div>
    </div>
  );
}
