import { parseDate, type CalendarDate, type DateValue } from '@internationalized/date';
import { Button, Calendar, CalendarCell, CalendarGrid, DateInput, DatePicker, DateSegment, Dialog, FieldError, Group, Heading, I18nProvider, Label, Popover, Text } from '../../../lib/react-aria.ts';
import styles from './issue-date-picker.module.css';

export interface IssueDatePickerProps {
  /** The id an error summary links to (components/form.tsx): the summary's link focuses the date. */
  id?: string;
  label: string;
  /** YYYY-MM-DD or null. */
  value: string | null;
  onChange: (value: string | null) => void;
  /** Days with an issue: every other day is greyed out and cannot be chosen, unless `anyDay`. */
  publicationDays: ReadonlySet<string>;
  /** Every day may be chosen (the end of a stop: any day you come home, issue 25.14). */
  anyDay?: boolean;
  minValue: string;
  maxValue: string;
  description?: string;
  /** A message from our own rules (the cutoff, the end before the start); shown under the field. */
  errorMessage?: string | null;
  isDisabled?: boolean;
  isRequired?: boolean;
}

const toValue = (value: string | null): CalendarDate | null => {
  if (!value) return null;
  try {
    return parseDate(value);
  } catch {
    return null;
  }
};

/**
 * A date field with a calendar in nb-NO (React Aria Components): type the date as dd.mm.åååå
 * or pick it in the calendar, where days without a newspaper are greyed out.
 */
export function IssueDatePicker({ id, label, value, onChange, publicationDays, anyDay, minValue, maxValue, description, errorMessage, isDisabled, isRequired }: IssueDatePickerProps) {
  const isDateUnavailable = anyDay ? undefined : (date: DateValue) => !publicationDays.has(date.toString());
  return (
    <div id={id} className={styles.fieldAnchor}>
      <I18nProvider locale="nb-NO">
        <DatePicker
          className={styles.picker}
          value={toValue(value)}
          onChange={(date) => onChange(date ? date.toString() : null)}
          minValue={parseDate(minValue)}
          maxValue={parseDate(maxValue)}
          isDateUnavailable={isDateUnavailable}
          isInvalid={errorMessage ? true : undefined}
          isDisabled={isDisabled}
          isRequired={isRequired}
          validationBehavior="aria"
          shouldForceLeadingZeros
        >
          <Label className={styles.label}>{label}</Label>
          <Group className={styles.group}>
            <DateInput className={styles.input}>{(segment) => <DateSegment className={styles.segment} segment={segment} />}</DateInput>
            <Button className={styles.calendarButton} aria-label={`Velg dato i kalender: ${label}`}>
              <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2">
                <rect x="3" y="5" width="18" height="16" rx="2" />
                <path d="M3 10h18M8 3v4M16 3v4" />
              </svg>
            </Button>
          </Group>
          {description ? (
            <Text slot="description" className={styles.description}>
              {description}
            </Text>
          ) : null}
          <FieldError className={styles.error}>
            {({ validationDetails }) =>
              errorMessage ??
              (validationDetails.rangeUnderflow
                ? 'Datoen er for tidlig.'
                : validationDetails.rangeOverflow
                  ? 'Datoen er for langt fram i tid.'
                  : validationDetails.valueMissing
                    ? `${label} er påkrevd`
                    : 'Det kommer ingen avis denne dagen. Velg en dag med avis.')
            }
          </FieldError>
          <Popover className={styles.popover} placement="bottom start">
            <Dialog className={styles.dialog} aria-label={label}>
              <Calendar className={styles.calendar}>
                <header className={styles.calendarHeader}>
                  <Button slot="previous" className={styles.navButton} aria-label="Forrige måned">
                    ‹
                  </Button>
                  <Heading className={styles.heading} />
                  <Button slot="next" className={styles.navButton} aria-label="Neste måned">
                    ›
                  </Button>
                </header>
                <CalendarGrid className={styles.grid} weekdayStyle="short">
                  {(date) => <CalendarCell className={styles.cell} date={date} />}
                </CalendarGrid>
                <p className={styles.legend}>Grå dager har ingen avis.</p>
              </Calendar>
            </Dialog>
          </Popover>
        </DatePicker>
      </I18nProvider>
    </div>
  );
}
