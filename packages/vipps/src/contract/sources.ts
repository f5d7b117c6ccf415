/**
 * The published documents this package follows, pinned to the commits read. Every schema in
 * `src/contract/` comes from these; where a later document (the types generated into
 * `@vippsmobilepay/sdk` 2.4.2, or stored developer-site pages) says otherwise, the pinned one wins
 * and the schema says so in a comment. README.md carries the same table.
 */
export interface ContractSource {
  readonly api: 'access-token' | 'epayment' | 'recurring' | 'webhooks';
  readonly repository: string;
  readonly commit: string;
  readonly date: string;
  readonly files: readonly string[];
  /** `info.version` of the OpenAPI document. */
  readonly version: string;
}

export const contractSources: readonly ContractSource[] = [
  {
    api: 'access-token',
    repository: 'vippsas/access-token-api',
    commit: '2b36ec51fd77bbd6d54af9297051d906006e760d',
    date: '2023-11-21',
    files: ['docs/swagger.yaml', 'README.md'],
    version: '2.0.0',
  },
  {
    api: 'epayment',
    repository: 'vippsas/vipps-epayment-api',
    commit: 'e7a5c6eebfa2249e29d43dab08f1e4caf9a291f7',
    date: '2024-02-01',
    files: ['docs/epayment.v1.yml'],
    version: '1.4.1',
  },
  {
    // The guides were moved out of the repository after this commit; the spec above is newer.
    api: 'epayment',
    repository: 'vippsas/vipps-epayment-api',
    commit: '31a14f71470a00c1bb686b279a2ec6a7efbb88ac',
    date: '2023-12-12',
    files: ['operations/*.md', 'faq.md', 'features/webhooks.md', 'payment_states.md', 'quick-start.md'],
    version: 'guides',
  },
  {
    api: 'recurring',
    repository: 'vippsas/vipps-recurring-api',
    commit: '3f6ac6bce330c1a41e3a9f10318e8bb4a6b19d33',
    date: '2023-12-07',
    files: ['docs/openapi.yaml', 'recurring-api-guide.md', 'recurring-api-problems.md'],
    version: '2.6.17',
  },
  {
    api: 'webhooks',
    repository: 'vippsas/webhooks-api',
    commit: 'd1c57d2288df7a1fbf4c7ab8084158eb1a06bfe8',
    date: '2023-12-08',
    files: ['docs/swagger.yaml', 'request-authentication.md', 'events.md', 'api-guide.md', 'quick-start.md', 'faq.md'],
    version: 'v1',
  },
];
