/**
 * A loopback proxy in front of the label sandbox that spoils some answers after the sandbox has processed the call,
 * the one fault the sandbox itself does not play: malformed answers. On generate_label the label is already stored
 * (charged) when the answer is spoiled, so the app must treat it as an unknown outcome and reconcile it.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FaultProxyOptions {
  target: string;
  /** Probability that a generate_label answer is spoiled. */
  generate: number;
  /** Probability that a GET /labels page or an authenticate answer is spoiled. */
  other: number;
  /** Probability that a generate_label answer is held back slowMs (past the app's timeout; the label is charged). */
  slow: number;
  slowMs: [number, number];
  /**
   * Probability that a generate_label call reaches the service only lateMs later (queued on the way): the app has
   * given up by then, and the label is charged afterwards, so it appears in the service's list late.
   */
  late?: number;
  lateMs?: [number, number];
  random: () => number;
}

export interface FaultProxy {
  url: string;
  /** Spoiled answers by kind. */
  spoiled: Record<string, number>;
  setProbabilities(generate: number, other: number, slow: number, late?: number): void;
  close(): Promise<void>;
}

type Spoiler = (status: number, body: Buffer) => { status: number; contentType: string; body: string };

/** Ways a real service's answer goes wrong: cut short, an HTML error page from a gateway, a body of another shape. */
const SPOILERS: Record<string, Spoiler> = {
  truncated: (status, body) => ({ status, contentType: "application/json", body: body.toString("utf8").slice(0, Math.max(1, Math.floor(body.length / 2))) }),
  gatewayHtml: () => ({ status: 502, contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>" }),
  wrongShape: (status) => ({ status, contentType: "application/json", body: JSON.stringify({ data: { result: "ok" }, items: "none" }) }),
};
const KINDS = Object.keys(SPOILERS);

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  let generateProbability = options.generate;
  let otherProbability = options.other;
  let slowProbability = options.slow;
  let lateProbability = options.late ?? 0;
  const spoiled: Record<string, number> = {};

  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const path = incoming.url ?? "/";
    const isGenerate = path.startsWith("/labels/generate_label");
    const isOther = path.startsWith("/labels") || path.startsWith("/authenticate");
    const spoil = isGenerate ? options.random() < generateProbability : isOther && options.random() < otherProbability;
    const slow = isGenerate && options.random() < slowProbability;
    const [slowMin, slowMax] = options.slowMs;
    const holdMs = slow ? slowMin + Math.floor(options.random() * (slowMax - slowMin + 1)) : 0;
    const late = isGenerate && options.random() < lateProbability;
    const [lateMin, lateMax] = options.lateMs ?? [5_000, 8_000];
    const delayMs = late ? lateMin + Math.floor(options.random() * (lateMax - lateMin + 1)) : 0;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("error", () => outgoing.destroy());
        answer.on("end", async () => {
          if (outgoing.destroyed) return; // the caller gave up (a late delivery): the service processed it anyway
          if (holdMs > 0) {
            spoiled["generate:slow"] = (spoiled["generate:slow"] ?? 0) + 1;
            await new Promise((resolve) => setTimeout(resolve, holdMs));
            if (outgoing.destroyed) return;
          }
          const body = Buffer.concat(chunks);
          // Only answers the sandbox gave normally are spoiled (its own faults pass through as they are).
          if (spoil && (answer.statusCode ?? 500) < 300) {
            const kind = KINDS[Math.floor(options.random() * KINDS.length)]!;
            spoiled[`${isGenerate ? "generate" : "other"}:${kind}`] = (spoiled[`${isGenerate ? "generate" : "other"}:${kind}`] ?? 0) + 1;
            const bad = SPOILERS[kind]!(answer.statusCode ?? 200, body);
            outgoing.writeHead(bad.status, { "content-type": bad.contentType, "content-length": Buffer.byteLength(bad.body) });
            outgoing.end(bad.body);
            return;
          }
          const headers = { ...answer.headers };
          delete headers["transfer-encoding"];
          headers["content-length"] = String(body.length);
          outgoing.writeHead(answer.statusCode ?? 502, headers);
          outgoing.end(body);
        });
      },
    );
    // The sandbox reset the connection (its own fault): reset ours too, as the real network would.
    upstream.on("error", () => outgoing.destroy());
    if (late) {
      // Read the whole request, then deliver it later whatever happened to the caller meanwhile.
      spoiled["generate:late"] = (spoiled["generate:late"] ?? 0) + 1;
      const body: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => body.push(chunk));
      incoming.on("end", () => setTimeout(() => upstream.end(Buffer.concat(body)), delayMs));
      incoming.on("error", () => setTimeout(() => upstream.end(Buffer.concat(body)), delayMs));
      return;
    }
    incoming.on("error", () => upstream.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spoiled,
    setProbabilities(generate, other, slow, late = 0) {
      lateProbability = late;
      generateProbability = generate;
      otherProbability = other;
      slowProbability = slow;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback proxy that passes everything through and counts the answers whose body contains each pattern. */
export async function startObservingProxy(target: string, patterns: string[]): Promise<{ url: string; seen: Record<string, number>; close(): Promise<void> }> {
  const upstreamUrl = new URL(target);
  const seen: Record<string, number> = Object.fromEntries(patterns.map((pattern) => [pattern, 0]));
  const server = createServer((incoming, outgoing) => {
    const upstream = httpRequest(
      { host: upstreamUrl.hostname, port: upstreamUrl.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("error", () => outgoing.destroy());
        answer.on("end", () => {
          const body = Buffer.concat(chunks);
          const text = body.toString("utf8");
          for (const pattern of patterns) if (text.includes(pattern)) seen[pattern] = (seen[pattern] ?? 0) + 1;
          const headers = { ...answer.headers };
          delete headers["transfer-encoding"];
          headers["content-length"] = String(body.length);
          outgoing.writeHead(answer.statusCode ?? 502, headers);
          outgoing.end(body);
        });
      },
    );
    upstream.on("error", () => outgoing.destroy());
    incoming.on("error", () => upstream.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
