import { z } from 'zod';
import { legalPages, supportPages, type ContentBlock, type InlineNode } from './privacy-rules.ts';

/**
 * Data rights (issue 9, SPEC §2 gateway routes, §5 account deletion, §9 timelines): the data
 * export ("takeout") and the account deletion, and the Markdown content pages (terms,
 * policies, the customer-service FAQ) an operator edits per title group.
 */

/** pending: waiting for the job; ready: can be downloaded; expired: the file is gone (7 days). */
const exportStatuses = ['pending', 'ready', 'expired'] as const;
export const exportRequestSchema = z.object({
  id: z.string(),
  status: z.enum(exportStatuses),
  requestedAt: z.string(),
  readyAt: z.string().nullable(),
  /** When the file is deleted (ready only). */
  expiresAt: z.string().nullable(),
  /** Relative download URL (ready only); it needs the session of the same user. */
  downloadUrl: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
});
export type ExportRequest = z.infer<typeof exportRequestSchema>;

export const exportListSchema = z.object({
  exports: z.array(exportRequestSchema),
  /** How many more copies may be asked for today (EXPORT_DAILY_LIMIT per Oslo day); 0 closes the button. */
  remainingToday: z.number().int().min(0),
});
export type ExportList = z.infer<typeof exportListSchema>;

export const exportIdParamsSchema = z.object({ id: z.string().uuid() });

/** POST /api/privacy/deletion: both boxes of SPEC §5 must be ticked (true); anything else is 400. */
export const deletionRequestBodySchema = z.object({
  confirmConsequences: z.boolean(),
  confirmPaymentHistory: z.boolean(),
});
export type DeletionRequestBody = z.infer<typeof deletionRequestBodySchema>;

/** scheduled: waiting for the erasure job; completed: done (only an operator ever sees this, the login is gone). */
const deletionRequestSchema = z.object({
  status: z.enum(['scheduled', 'completed']),
  requestedAt: z.string(),
  scheduledFor: z.string(),
  /** Subscriptions that were cancelled by the request (plan names). */
  cancelledSubscriptions: z.array(z.string()),
});

export const deletionStateSchema = z.object({ request: deletionRequestSchema.nullable() });
export type DeletionState = z.infer<typeof deletionStateSchema>;

/** Operator job endpoints: how many requests the run handled. */
export const privacyJobResultSchema = z.object({ processed: z.number().int() });

// ---------------------------------------------------------------------------------------
// Content pages from Markdown (content/{kind}/{group}/{page}.md), served as a small tree of
// allowed nodes: no HTML travels, so the web renders it with React elements and nothing the
// operator writes can run as script.
// ---------------------------------------------------------------------------------------

/**
 * The union says which pages each kind has. It is read from a plain object of the two path
 * parameters, which is what the OpenAPI document shows: a union there would be flattened to
 * its last branch, and the legal pages would be missing from the contract.
 */
export const contentParamsSchema = z
  .object({ kind: z.enum(['legal', 'support']), page: z.enum([...legalPages, ...supportPages]) })
  .pipe(z.discriminatedUnion('kind', [z.object({ kind: z.literal('legal'), page: z.enum(legalPages) }), z.object({ kind: z.literal('support'), page: z.enum(supportPages) })]));
export const contentQuerySchema = z.object({ titleCode: z.string().min(1).max(16).optional() });

/**
 * Recursive, so the OpenAPI document can only refer to it: the id names it there
 * (`#/components/schemas/InlineNode`, filled by jsonSchemaTransformObject in the server's app.ts).
 */
const inlineNodeSchema: z.ZodType<InlineNode> = z
  .lazy(() =>
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({ type: z.literal('strong'), children: z.array(inlineNodeSchema) }),
      z.object({ type: z.literal('em'), children: z.array(inlineNodeSchema) }),
      z.object({ type: z.literal('code'), text: z.string() }),
      z.object({ type: z.literal('link'), href: z.string(), children: z.array(inlineNodeSchema) }),
      z.object({ type: z.literal('break') }),
    ]),
  )
  .meta({ id: 'InlineNode' });

const contentBlockSchema: z.ZodType<ContentBlock> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), level: z.union([z.literal(2), z.literal(3), z.literal(4)]), id: z.string(), children: z.array(inlineNodeSchema) }),
  z.object({ type: z.literal('paragraph'), children: z.array(inlineNodeSchema) }),
  z.object({ type: z.literal('list'), ordered: z.boolean(), items: z.array(z.array(inlineNodeSchema)) }),
  z.object({ type: z.literal('quote'), children: z.array(inlineNodeSchema) }),
]);

export const contentDocumentSchema = z.object({
  /** The document's `# heading`; the page shows it as its h1. */
  title: z.string(),
  /** The title group whose file it is, or `default`. */
  group: z.string(),
  blocks: z.array(contentBlockSchema),
  /** ISO timestamp of the file's last change. */
  updatedAt: z.string(),
});
export type ContentDocument = z.infer<typeof contentDocumentSchema>;

export * from './privacy-rules.ts';
