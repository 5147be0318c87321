/**
 * The label sandbox: the label service as documented, for development, tests and the demo (never imported by app
 * code). State is in memory, optionally persisted to a JSON file. See docs/readme/label-sandbox.md.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { z } from "zod";
import { defaultFaults, faultConfigSchema, fires, mergeFaults, type FaultConfig, type FaultConfigInput } from "./faults";
import { signToken, verifyToken } from "./jwt";
import { labelFileKind, renderDpl, renderPdf, renderZpl, type LabelFileData } from "./labels-file";
import { servicesFor, trackingNumberFor } from "./services";
import { validateLabelRequest } from "./validation";

export const DEMO_ACCOUNT = { email: "demo@etiquette.test", password: "demo-sandbox" } as const;

export interface SandboxOptions {
  port?: number;
  host?: string;
  tokenLifetimeSeconds?: number;
  pageSize?: number;
  faults?: FaultConfigInput;
  random?: () => number;
  /** Epoch milliseconds; injectable for token-expiry tests. */
  now?: () => number;
  /** Persist labels here (JSON) so a restart keeps them. */
  dataFile?: string;
  accounts?: ReadonlyArray<{ email: string; password: string }>;
}

export interface LabelSandbox {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface StoredLabel extends LabelFileData {
  account: string;
  createdAt: string;
  destination: string;
}

const persistedSchema = z.object({ version: z.literal(1), sequence: z.number().int(), labels: z.array(z.record(z.string(), z.unknown())) });

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** The largest request body the sandbox reads. */
export const MAX_BODY_BYTES = 5_000_000;

/**
 * Reads the body without ever abandoning the stream half-read: leaving a `for await` early destroys the request and
 * detaches its socket, so the 413 could not be sent and the error handler crashed on `request.socket` (null). Past
 * the limit the rest is read and dropped, then 413 is answered on a connection that is closed afterwards.
 */
async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    request.once("end", () => resolve());
    request.once("error", reject);
  });
  if (size > MAX_BODY_BYTES) throw new HttpError(413, { error: "requête trop volumineuse" }, { connection: "close" });
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, { error: "JSON invalide" });
  }
}

export async function startLabelSandbox(options: SandboxOptions = {}): Promise<LabelSandbox> {
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const tokenLifetime = options.tokenLifetimeSeconds ?? 24 * 3600;
  const pageSize = options.pageSize ?? 20;
  const accounts = options.accounts ?? [DEMO_ACCOUNT];
  const secret = randomBytes(32).toString("hex");
  let faults: FaultConfig = faultConfigSchema.parse(options.faults ?? {});
  let tokenGeneration = 0;
  let sequence = 0;
  let labels: StoredLabel[] = [];
  let baseUrl = "";
  /** Inspection counters (GET /__admin/stats), zeroed by DELETE /__admin/stats and by POST /__admin/reset. */
  const freshStats = () => ({
    /** Successful POST /authenticate. */
    authentications: 0,
    /** Successful POST /authenticate per account e-mail. */
    authenticationsByAccount: {} as Record<string, number>,
    /** POST /authenticate refused for bad credentials. */
    failedAuthentications: 0,
    /** Calls refused with 401 for a missing, invalid or expired token. */
    rejectedTokens: 0,
    /**
     * Milliseconds spent with k label purchases (POST /labels/generate_label) in flight, at index k, from the first
     * purchase on: how well a client keeps its allowed concurrency busy.
     */
    purchasesInFlightMs: [] as number[],
    /** Labels bought (a purchase answered with its label). */
    purchases: 0,
  });
  let purchasesInFlight = 0;
  let inFlightSince: number | undefined;
  /** Adds the time since the last change to the current level, then moves the level by `delta`. */
  const tallyPurchases = (delta: number) => {
    if (inFlightSince === undefined && delta === 0) return;
    const at = performance.now();
    if (inFlightSince !== undefined) stats.purchasesInFlightMs[purchasesInFlight] = (stats.purchasesInFlightMs[purchasesInFlight] ?? 0) + (at - inFlightSince);
    inFlightSince = at;
    purchasesInFlight += delta;
  };
  let stats = freshStats();
  /** Zeroes the counters; the in-flight tally restarts now if a purchase is in flight, else at the next one. */
  const restartStats = () => {
    stats = freshStats();
    inFlightSince = purchasesInFlight > 0 ? performance.now() : undefined;
  };

  if (options.dataFile && existsSync(options.dataFile)) {
    const persisted = persistedSchema.parse(JSON.parse(readFileSync(options.dataFile, "utf8")));
    sequence = persisted.sequence;
    labels = persisted.labels as unknown as StoredLabel[];
  }
  const persist = () => {
    if (!options.dataFile) return;
    mkdirSync(path.dirname(options.dataFile), { recursive: true });
    writeFileSync(options.dataFile, JSON.stringify({ version: 1, sequence, labels }));
  };

  const authenticate = (request: IncomingMessage): string => {
    const refuse = (error: string) => {
      stats.rejectedTokens += 1;
      return new HttpError(401, { error });
    };
    const header = request.headers.authorization ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) throw refuse("jeton d'authentification manquant");
    const check = verifyToken(match[1]!, secret, Math.floor(now() / 1000));
    if (!check.ok) {
      throw refuse(check.reason === "expired" ? "jeton d'authentification expiré" : "jeton d'authentification invalide");
    }
    if ((check.claims.gen ?? 0) < tokenGeneration) throw refuse("jeton d'authentification expiré");
    return check.claims.sub;
  };

  // Links are built from the current address, so persisted labels stay reachable after a restart on another port.
  const labelUrl = (label: StoredLabel) => `${baseUrl}/files/labels/${label.id}.${labelFileKind(label.labelType).extension}`;
  const trackingUrl = (label: StoredLabel) => `${baseUrl}/tracking/${label.reference}`;

  const toListItem = (label: StoredLabel) => ({
    id: label.id,
    reference: label.reference,
    custom_reference: label.customReference,
    carrier_name: label.carrierName,
    carrier_service_name: label.serviceName,
    label_url: labelUrl(label),
    tracking_url: trackingUrl(label),
    created_at: label.createdAt,
    country: label.destination,
  });

  /** Admin inspection only: the public list does not say which account bought a label. */
  const toAdminItem = (label: StoredLabel) => ({ ...toListItem(label), account: label.account });

  async function generate(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const account = authenticate(request);
    const body = await readJson(request);
    const checked = validateLabelRequest(body);
    if (!checked.ok) {
      const fields = Object.keys(checked.errors);
      throw new HttpError(422, { error: `La demande d'étiquette est invalide (${fields.join(", ")}).`, errors: checked.errors });
    }
    const { value } = checked;
    if (fires(faults, "refuseLabel", random)) {
      const { field, message } = faults.refuseLabel;
      throw new HttpError(422, { error: `La demande d'étiquette est invalide (${field}).`, errors: { [field]: [message] } });
    }
    sequence += 1;
    const id = randomUUID();
    const reference = trackingNumberFor(value.carrier, value.destination, sequence, random);
    const label: StoredLabel = {
      id,
      account,
      reference,
      carrierName: value.carrier,
      serviceName: value.service,
      labelType: value.labelType,
      customReference: value.customReference,
      weightGrams: value.weight,
      sender: value.body.sender as Record<string, unknown>,
      recipient: value.body.recipient as Record<string, unknown>,
      destination: value.destination,
      createdAt: new Date(now()).toISOString(),
    };
    labels.push(label);
    stats.purchases += 1;
    persist();
    if (fires(faults, "chargedButLost", random)) {
      // Charged (stored), but the answer never reaches the caller.
      request.socket?.destroy();
      return;
    }
    send(response, 200, {
      message: "Étiquette générée avec succès",
      reference,
      label_url: labelUrl(label),
      id,
      tracking_url: trackingUrl(label),
    });
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", baseUrl);
    const method = request.method ?? "GET";
    const pathname = url.pathname.replace(/\/+$/, "") || "/";

    // Test and demo controls (not part of the real service).
    if (pathname.startsWith("/__admin/")) {
      if (pathname === "/__admin/faults" && method === "GET") return send(response, 200, faults);
      if (pathname === "/__admin/faults" && method === "POST") {
        try {
          faults = mergeFaults(faults, await readJson(request));
        } catch (error) {
          throw new HttpError(400, { error: error instanceof Error ? error.message : String(error) });
        }
        return send(response, 200, faults);
      }
      if (pathname === "/__admin/expire-tokens" && method === "POST") {
        tokenGeneration += 1;
        return send(response, 200, { expired: true });
      }
      if (pathname === "/__admin/labels" && method === "GET") {
        const countByReference: Record<string, number> = {};
        for (const label of labels) countByReference[label.customReference] = (countByReference[label.customReference] ?? 0) + 1;
        return send(response, 200, { count: labels.length, labels: labels.map(toAdminItem), countByReference });
      }
      if (pathname === "/__admin/stats" && method === "GET") {
        tallyPurchases(0);
        return send(response, 200, stats);
      }
      if (pathname === "/__admin/stats" && method === "DELETE") {
        // The counters alone start again (labels, faults and tokens stay).
        restartStats();
        return send(response, 200, stats);
      }
      if (pathname === "/__admin/reset" && method === "POST") {
        labels = [];
        sequence = 0;
        faults = defaultFaults();
        tokenGeneration += 1;
        restartStats();
        persist();
        return send(response, 200, { reset: true });
      }
      throw new HttpError(404, { error: "route d'administration inconnue" });
    }

    // Files and tracking pages are public links, like the real service's.
    const file = /^\/files\/labels\/([0-9a-f-]+)\.(pdf|zpl|dpl)$/.exec(pathname);
    if (file && method === "GET") {
      const label = labels.find((candidate) => candidate.id === file[1]);
      if (!label) throw new HttpError(404, { error: "étiquette introuvable" });
      const kind = labelFileKind(label.labelType);
      const content =
        kind.extension === "pdf" ? Buffer.from(await renderPdf(label)) : Buffer.from(kind.extension === "zpl" ? renderZpl(label) : renderDpl(label), "utf8");
      response.writeHead(200, {
        "content-type": kind.contentType,
        "content-length": content.length,
        "content-disposition": `inline; filename="${label.reference}.${kind.extension}"`,
      });
      response.end(content);
      return;
    }
    const tracking = /^\/tracking\/([A-Za-z0-9]+)$/.exec(pathname);
    if (tracking && method === "GET") {
      const label = labels.find((candidate) => candidate.reference === tracking[1]);
      if (!label) throw new HttpError(404, { error: "numéro de suivi inconnu" });
      const html = `<!doctype html><html lang="fr"><meta charset="utf-8"><title>Suivi ${label.reference}</title><body style="font-family:sans-serif;max-width:40em;margin:2em auto"><h1>Suivi du colis ${label.reference}</h1><p>Transporteur : ${label.carrierName} (${label.serviceName})</p><ol><li>${label.createdAt} — Étiquette créée, colis en attente de prise en charge</li></ol><p><small>Bac à sable Etiquette : aucun colis réel.</small></p></body></html>`;
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(html);
      return;
    }

    // The documented API, with faults.
    const api =
      (pathname === "/authenticate" && method === "POST") ||
      (pathname === "/labels/generate_label" && method === "POST") ||
      (pathname === "/labels" && method === "GET") ||
      (pathname === "/carrier_services/services" && method === "GET");
    if (!api) throw new HttpError(404, { error: "route inconnue" });

    if (fires(faults, "latency", random)) {
      const { minMs, maxMs } = faults.latency;
      await new Promise((resolve) => setTimeout(resolve, minMs + Math.floor(random() * Math.max(0, maxMs - minMs + 1))));
    }
    if (fires(faults, "resetBeforeProcessing", random)) {
      request.socket?.destroy();
      return;
    }
    if (fires(faults, "rateLimit", random)) {
      throw new HttpError(429, { error: "trop de requêtes, réessayez plus tard" }, { "retry-after": String(faults.rateLimit.retryAfterSeconds) });
    }
    if (fires(faults, "error5xx", random)) {
      throw new HttpError(faults.error5xx.status, { error: "erreur interne du service" });
    }

    if (pathname === "/authenticate") {
      const body = (await readJson(request)) as { email?: unknown; password?: unknown } | undefined;
      const account = accounts.find((candidate) => candidate.email === body?.email && candidate.password === body?.password);
      if (!account) {
        stats.failedAuthentications += 1;
        throw new HttpError(401, { error: "identifiants invalides" });
      }
      stats.authentications += 1;
      stats.authenticationsByAccount[account.email] = (stats.authenticationsByAccount[account.email] ?? 0) + 1;
      const iat = Math.floor(now() / 1000);
      return send(response, 200, { auth_token: signToken({ sub: account.email, iat, exp: iat + tokenLifetime, gen: tokenGeneration }, secret) });
    }
    if (pathname === "/labels/generate_label") return generate(request, response);
    if (pathname === "/labels") {
      const account = authenticate(request);
      const page = Number(url.searchParams.get("page") ?? "1");
      if (!Number.isInteger(page) || page < 1) throw new HttpError(422, { error: "le paramètre page doit être un entier à partir de 1" });
      const mine = labels.filter((label) => label.account === account).reverse();
      return send(response, 200, mine.slice((page - 1) * pageSize, page * pageSize).map(toListItem));
    }
    authenticate(request);
    const country = (url.searchParams.get("country") ?? "").toUpperCase();
    if (!/^[A-Z]{2}$/.test(country)) throw new HttpError(422, { error: "le paramètre country doit être un code pays à deux lettres" });
    return send(response, 200, {
      services: servicesFor(country).map(({ carrier_name, name, label }) => ({ carrier_name, name, label })),
    });
  }

  const server = createServer((request, response) => {
    if (request.method === "POST" && request.url?.startsWith("/labels/generate_label")) {
      tallyPurchases(1);
      response.once("close", () => tallyPurchases(-1));
    }
    route(request, response).catch((error: unknown) => {
      if (response.headersSent || !request.socket || request.socket.destroyed) return;
      if (error instanceof HttpError) return send(response, error.status, error.body, error.headers);
      send(response, 500, { error: "erreur interne du bac à sable" });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  baseUrl = `http://${options.host ?? "127.0.0.1"}:${address.port}`;
  return {
    url: baseUrl,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
