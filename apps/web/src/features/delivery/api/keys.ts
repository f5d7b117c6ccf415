/** Query keys of the delivery area, in one place; mutations invalidate by these. */
export const deliveryKeys = {
  all: ['delivery'] as const,
  calendar: (titleCode: string) => ['delivery', titleCode, 'calendar'] as const,
  changes: (titleCode: string) => ['delivery', titleCode, 'changes'] as const,
  address: (titleCode: string) => ['delivery', titleCode, 'address'] as const,
  complaintOptions: (titleCode: string) => ['delivery', titleCode, 'complaint-options'] as const,
  notices: (titleCode: string) => ['delivery', titleCode, 'notices'] as const,
  complaintCodes: () => ['delivery', 'complaint-codes'] as const,
  postalCode: (postalCode: string) => ['delivery', 'postal-code', postalCode] as const,
};

export const titleQuery = (titleCode: string) => `?${new URLSearchParams({ titleCode })}`;
