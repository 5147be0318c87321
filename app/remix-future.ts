/** Remix v3 future flags, one list for the Vite plugin and for tests that build a server by hand. */
export const REMIX_FUTURE = {
  v3_fetcherPersist: true,
  v3_relativeSplatPath: true,
  v3_throwAbortReason: true,
  v3_lazyRouteDiscovery: true,
  v3_singleFetch: true,
} as const;
