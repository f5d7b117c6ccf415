import { queryOptions } from '@tanstack/react-query';
import {
  consentPermissionsStateSchema,
  contentDocumentSchema,
  deletionStateSchema,
  exportListSchema,
  exportRequestSchema,
  type ConsentPermissionsState,
  type ConsentPermissionsUpdate,
  type ContentDocument,
  type DeletionRequestBody,
  type DeletionState,
  type ExportList,
  type ExportRequest,
  type LegalPage,
  type SupportPage,
} from '@minside/domain';
import { http } from '../../../lib/http.ts';

/** Every query key of the privacy pages (consent keys are in consent.ts). */
export const privacyKeys = {
  content: (kind: string, page: string, titleCode: string) => ['privacy', 'content', kind, page, titleCode] as const,
  permissions: ['privacy', 'permissions'] as const,
  exports: ['privacy', 'exports'] as const,
  deletion: ['privacy', 'deletion'] as const,
};

/** GET /api/content/{kind}/{page}: a terms, policy or FAQ page of the title's group. */
export function contentQueryOptions(kind: 'legal', page: LegalPage, titleCode: string): ReturnType<typeof contentOptions>;
export function contentQueryOptions(kind: 'support', page: SupportPage, titleCode: string): ReturnType<typeof contentOptions>;
export function contentQueryOptions(kind: 'legal' | 'support', page: LegalPage | SupportPage, titleCode: string) {
  return contentOptions(kind, page, titleCode);
}

function contentOptions(kind: string, page: string, titleCode: string) {
  return queryOptions({
    queryKey: privacyKeys.content(kind, page, titleCode),
    queryFn: ({ signal }): Promise<ContentDocument> => http.get(`content/${kind}/${page}?titleCode=${encodeURIComponent(titleCode)}`, contentDocumentSchema, { signal }),
    staleTime: 5 * 60 * 1000,
  });
}

export function permissionsQueryOptions() {
  return queryOptions({ queryKey: privacyKeys.permissions, queryFn: ({ signal }): Promise<ConsentPermissionsState> => http.get('consent/permissions', consentPermissionsStateSchema, { signal }) });
}

export function putPermissions(body: ConsentPermissionsUpdate): Promise<ConsentPermissionsState> {
  return http.put('consent/permissions', body, consentPermissionsStateSchema);
}

export function exportsQueryOptions() {
  return queryOptions({ queryKey: privacyKeys.exports, queryFn: ({ signal }): Promise<ExportList> => http.get('privacy/export', exportListSchema, { signal }) });
}

export function requestExport(): Promise<ExportRequest> {
  return http.post('privacy/export', {}, exportRequestSchema);
}

export function deletionQueryOptions() {
  return queryOptions({ queryKey: privacyKeys.deletion, queryFn: ({ signal }): Promise<DeletionState> => http.get('privacy/deletion', deletionStateSchema, { signal }) });
}

export function requestDeletion(body: DeletionRequestBody): Promise<DeletionState> {
  return http.post('privacy/deletion', body, deletionStateSchema);
}
