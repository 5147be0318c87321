/** HS256 JSON Web Tokens with node:crypto, as the label service issues them (`auth_token`). */
import { createHmac, timingSafeEqual } from "node:crypto";

const base64url = (input: Buffer | string) => Buffer.from(input).toString("base64url");

export interface TokenClaims {
  sub: string;
  iat: number;
  exp: number;
  /** Sandbox-only: tokens of an older generation were expired by an admin action. */
  gen?: number;
}

export function signToken(claims: TokenClaims, secret: string): string {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: "malformed" | "signature" | "expired" };

export function verifyToken(token: string, secret: string, nowSeconds: number): TokenCheck {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "malformed" };
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac("sha256", secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "signature" };
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as TokenClaims;
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (typeof claims.exp !== "number" || claims.exp <= nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, claims };
}
