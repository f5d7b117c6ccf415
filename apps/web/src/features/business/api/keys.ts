/** Query keys of the business area, in one place; mutations update by these. */
export const businessKeys = {
  all: ['business'] as const,
  overview: (titleCode: string) => ['business', titleCode, 'overview'] as const,
  einvoice: (titleCode: string) => ['business', titleCode, 'einvoice'] as const,
};

export const titleQuery = (titleCode: string, extra: Record<string, string> = {}) => `?${new URLSearchParams({ titleCode, ...extra })}`;
