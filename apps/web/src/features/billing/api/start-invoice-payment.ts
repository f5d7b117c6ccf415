import type { CreateInvoicePaymentBody, PaymentRedirect } from '@minside/domain';
import { http } from '../../../lib/http.ts';

/** POST /api/invoice/{ariaInvoiceNo}/payment: starts paying one invoice at the provider. */
export function startInvoicePayment(ariaInvoiceNo: number, body: CreateInvoicePaymentBody): Promise<PaymentRedirect> {
  return http.post<PaymentRedirect>(`invoice/${ariaInvoiceNo}/payment`, body);
}
