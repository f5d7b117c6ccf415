/** Query keys of the student area, in one place. */
export const studentKeys = {
  all: ['student'] as const,
  status: () => ['student', 'status'] as const,
  info: (titleCode: string) => ['student', titleCode, 'info'] as const,
};

export const titleQuery = (titleCode: string) => `?${new URLSearchParams({ titleCode })}`;
