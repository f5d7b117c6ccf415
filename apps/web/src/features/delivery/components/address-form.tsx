import type { DeliveryAddress, DeliveryAddressInput } from '@minside/domain';
import { isApiError } from '../../../lib/http.ts';
import type { FieldRegistration } from '../../../lib/use-zod-form.ts';
import { usePostalCodeTown } from '../api/lookup-postal-code.ts';
import form from '../../../components/form.module.css';
import grid from './address-form.module.css';

/** What the address fields hold while typing: all strings. The domain's `deliveryAddressInputSchema` checks them (SPEC §5 messages). */
export type AddressValues = Record<'name' | 'coName' | 'street' | 'streetNumber' | 'apartment' | 'floor' | 'postalCode', string>;
type AddressField = keyof AddressValues;

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

/** An address as stored (the server checked it when it was given), as it is sent again: without the town it looked up. */
export function addressInputOf({ town: _town, ...address }: DeliveryAddress): DeliveryAddressInput {
  return address;
}

const order: readonly AddressField[] = ['name', 'coName', 'street', 'streetNumber', 'apartment', 'floor', 'postalCode'];

/** The id of an address field's input under `idPrefix` (AddressFields). */
const addressFieldId = (idPrefix: string, name: AddressField) => `${idPrefix}-${name}`;

/**
 * The ids of the address fields' inputs under `idPrefix`, by their path in the form (`pathPrefix`
 * and the field's name), in the fields' order: for the form's `fieldIds` (lib/use-zod-form.ts).
 */
export function addressFieldIds<Prefix extends string>(idPrefix: string, pathPrefix: Prefix): Record<`${Prefix}${AddressField}`, string> {
  return Object.fromEntries(order.map((name) => [`${pathPrefix}${name}`, addressFieldId(idPrefix, name)])) as Record<`${Prefix}${AddressField}`, string>;
}

/** One address field as its form has it: its registration and its error. */
export interface AddressFieldState {
  registration: FieldRegistration;
  error: string | undefined;
}

interface FieldProps {
  idPrefix: string;
  name: AddressField;
  label: string;
  optional?: boolean;
  autoComplete?: string;
  inputMode?: 'numeric' | 'text';
  maxLength?: number;
  /** Columns of six on wide screens. */
  span: 2 | 3 | 4 | 6;
  field: (name: AddressField) => AddressFieldState;
}

function Field({ idPrefix, name, label, optional, autoComplete, inputMode, maxLength, span, field }: FieldProps) {
  const id = addressFieldId(idPrefix, name);
  const { registration, error } = field(name);
  return (
    <div className={`${form.field} ${grid[`span${span}`]}`}>
      <label className={form.label} htmlFor={id}>
        {label} {optional ? <span className={form.optional}>(valgfritt)</span> : null}
      </label>
      <input
        id={id}
        className={form.input}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...registration}
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
  /** Put before each field's name in its id (`addressFieldIds` gives them for the form's error summary). */
  idPrefix: string;
  /** Each field's registration with the form and its error. */
  field: (name: AddressField) => AddressFieldState;
  /** The postal code as typed: the town is looked up from it. */
  postalCode: string;
}

/** SPEC §3 delivery address: name, c/o, street, number, flat, floor, postal code; the town is looked up. */
export function AddressFields({ idPrefix, field, postalCode: typed }: AddressFieldsProps) {
  const townId = `${idPrefix}-town`;
  const postalCode = typed.trim();
  const lookup = usePostalCodeTown(postalCode);
  const unknown = isApiError(lookup.error) && lookup.error.status === 404;
  const town = /^\d{4}$/.test(postalCode) ? (lookup.data?.town ?? '') : '';
  // An unknown postal code is said at the field (not in the summary: no submit found it).
  const withLookup = (name: AddressField): AddressFieldState => {
    const state = field(name);
    return name === 'postalCode' && !state.error && unknown ? { ...state, error: lookup.error?.message } : state;
  };
  const common = { idPrefix, field: withLookup };

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
