import { queryOptions } from '../../../lib/query/index.ts';
import type { ConsentPermissionsState, ConsentPermissionsUpdate, ContentDocument, DeletionRequestBody, DeletionState, ExportList, ExportRequest, LegalPage, SupportPage } from '@minside/domain';
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
    queryFn: ({ signal }): Promise<ContentDocument> => http.get<ContentDocument>(`content/${kind}/${page}?titleCode=${encodeURIComponent(titleCode)}`, { signal }),
    staleTime: 5 * 60 * 1000,
  });
}

export function permissionsQueryOptions() {
  return queryOptions({ queryKey: privacyKeys.permissions, queryFn: ({ signal }): Promise<ConsentPermissionsState> => http.get<ConsentPermissionsState>('consent/permissions', { signal }) });
}

export function putPermissions(body: ConsentPermissionsUpdate): Promise<ConsentPermissionsState> {
  return http.put<ConsentPermissionsState>('consent/permissions', body);
}

export function exportsQueryOptions() {
  return queryOptions({ queryKey: privacyKeys.exports, queryFn: ({ signal }): Promise<ExportList> => http.get<ExportList>('privacy/export', { signal }) });
}

export function requestExport(): Promise<ExportRequest> {
  return http.post<ExportRequest>('privacy/export', {});
}

export function deletionQueryOptions() {
  return queryOptions({ queryKey: privacyKeys.deletion, queryFn: ({ signal }): Promise<DeletionState> => http.get<DeletionState>('privacy/deletion', { signal }) });
}

export function requestDeletion(body: DeletionRequestBody): Promise<DeletionState> {
  return http.post<DeletionState>('privacy/deletion', body);
}
