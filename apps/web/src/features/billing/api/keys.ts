/** Every query key of the billing area, in one place; mutations invalidate by these. */
export const billingKeys = {
  all: ['billing'] as const,
  invoices: (ariaAccountNo: number) => ['billing', ariaAccountNo, 'invoices'] as const,
  creditNotes: (ariaAccountNo: number) => ['billing', ariaAccountNo, 'credit-notes'] as const,
  payment: (paymentId: string) => ['billing', 'payment', paymentId] as const,
  paymentMethod: (ariaAccountNo: number, titleCode: string) => ['billing', ariaAccountNo, titleCode.toUpperCase(), 'payment-method'] as const,
  discount: (ariaAccountNo: number, titleCode: string) => ['billing', ariaAccountNo, titleCode.toUpperCase(), 'discount'] as const,
  paylink: (token: string) => ['billing', 'paylink', token] as const,
};
