/**
 * Who chose the carrier service: the merchant on the page, a shipping rule, or the zone's default (Settings). On its
 * own so that browser code and the admin extensions can name it without pulling in the mapper.
 */
export type ServiceChoice =
  | { source: "merchant" }
  | { source: "rule"; position: number; name: string }
  | { source: "zone_default"; zone: "domestic" | "eu" | "world" };
