/** Every query key of the titles area, in one place. */
export const titleKeys = {
  all: ['titles'] as const,
  /** The title code resolved for this site (the my-page origin). */
  code: (origin: string) => ['titles', 'code', origin] as const,
  detail: (titleCode: string) => ['titles', 'detail', titleCode.toUpperCase()] as const,
  maintenance: (origin: string) => ['titles', 'maintenance', origin] as const,
};
