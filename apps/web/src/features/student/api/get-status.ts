import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { StudentStatus, StudentStatusResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { studentKeys } from './keys.ts';

/** GET /api/student/status: when the signed-in student must verify again. */
async function getStudentStatus(signal?: AbortSignal): Promise<StudentStatus | null> {
  return (await http.get<StudentStatusResponse>('student/status', { signal })).status;
}

const studentStatusQueryOptions = () => queryOptions({ queryKey: studentKeys.status(), queryFn: ({ signal }) => getStudentStatus(signal) });

export function useStudentStatus(enabled = true) {
  return useQuery({ ...studentStatusQueryOptions(), enabled });
}
