import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { StudentInfoResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { studentKeys, titleQuery } from './keys.ts';

/** GET /api/student/info (public): the approved institutions and the student price. */
function getStudentInfo(titleCode: string, signal?: AbortSignal): Promise<StudentInfoResponse> {
  return http.get<StudentInfoResponse>(`student/info${titleQuery(titleCode)}`, { signal });
}

const studentInfoQueryOptions = (titleCode: string) => queryOptions({ queryKey: studentKeys.info(titleCode), queryFn: ({ signal }) => getStudentInfo(titleCode, signal), staleTime: 5 * 60_000 });

export function useStudentInfo(titleCode: string) {
  return useQuery(studentInfoQueryOptions(titleCode));
}
