// Our own query cache, in place of @tanstack/react-query (docs/decisions/035): the same names and
// signatures for the part of its API the app uses.
export { QueryClient, queryOptions } from './client.ts';
export { QueryClientProvider, useIsFetching, useIsMutating, useQuery, useQueryClient, useSuspenseQuery } from './hooks.tsx';
export { infiniteQueryOptions, useInfiniteQuery } from './infinite.ts';
export { useMutation, type MutationOptions, type MutationResult } from './mutation.ts';
export type { Query, QueryOptions } from './query.ts';
