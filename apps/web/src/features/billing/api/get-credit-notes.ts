import { queryOptions } from '../../../lib/query/index.ts';
import type { CreditNote, CreditNoteList } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { billingKeys } from './keys.ts';

/** GET /api/invoice/{accountNo}/credit-notes: the account's credit notes, newest first. */
export function creditNotesQueryOptions(ariaAccountNo: number) {
  return queryOptions({
    queryKey: billingKeys.creditNotes(ariaAccountNo),
    queryFn: ({ signal }) => http.get<CreditNoteList>(`invoice/${ariaAccountNo}/credit-notes`, { signal }),
    staleTime: 0,
  });
}

/** Where a credit note's PDF is (opened in the browser: print or save). */
export function creditNotePdfUrl(ariaAccountNo: number, creditNote: Pick<CreditNote, 'number'>): string {
  return `/api/invoice/${ariaAccountNo}/credit-notes/${creditNote.number}/pdf`;
}
