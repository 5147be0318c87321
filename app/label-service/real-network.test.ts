/**
 * Classification of real socket failures on loopback, through the client's default transport (`leanFetch`, undici's
 * request) and through Node's own fetch: both must give the same answer, since "nothing was sent" lets a purchase be
 * tried again and "unknown" sends it to reconciliation.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { loopbackServers } from "../../test/helpers/loopback";
import { exampleLabelRequest } from "./__fixtures__/example-request";
import { fakeJwt } from "./__fixtures__/fake-fetch";
import { createLabelServiceClient, type FetchLike } from "./client";
import { Semaphore } from "./semaphore";
import { InMemoryTokenCache } from "./token-cache";

const { serve } = loopbackServers();

const TRANSPORTS: [string, FetchLike | undefined][] = [
  ["the default transport (leanFetch)", undefined],
  ["Node's fetch", (url, init) => fetch(url, init)],
];

function clientFor(transport: FetchLike | undefined, baseUrl: string, generateTimeoutMs = 10_000) {
  return createLabelServiceClient({
    ...(transport ? { fetch: transport } : {}),
    shop: "net.myshopify.com",
    account: { baseUrl, email: "a@b.fr", password: "pw-secret" },
    tokenCache: new InMemoryTokenCache(),
    semaphore: new Semaphore(2),
    options: { generateTimeoutMs },
  });
}

const token = fakeJwt({ exp: 2_000_000_000 });

describe.each(TRANSPORTS)("real sockets through %s", (_name, transport) => {
  it("a refused connection is network (nothing sent)", async () => {
    // A port that was just freed (not port 1: fetch refuses the ports the Fetch standard bars, before connecting).
    const port = await new Promise<number>((resolve) => {
      const server = createNetServer().listen(0, "127.0.0.1", () => {
        const { port: free } = server.address() as AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const result = await clientFor(transport, `http://127.0.0.1:${port}`).generateLabel(exampleLabelRequest());
    expect(result).toMatchObject({ status: "rejected", error: { kind: "network", code: "ECONNREFUSED" } });
  });

  it("a socket destroyed after the request was received is unknown", async () => {
    let generateRequests = 0;
    const url = await serve((request, response) => {
      if (request.url === "/authenticate") {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ auth_token: token }));
        return;
      }
      generateRequests += 1;
      request.resume();
      request.on("end", () => request.socket.destroy());
    });
    const result = await clientFor(transport, url).generateLabel(exampleLabelRequest());
    expect(result).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome" } });
    expect(generateRequests).toBe(1);
  });

  it("a server that never answers within the timeout is unknown", async () => {
    const url = await serve((request, response) => {
      if (request.url === "/authenticate") {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ auth_token: token }));
      }
      // generate_label: never answered
    });
    const result = await clientFor(transport, url, 100).generateLabel(exampleLabelRequest());
    expect(result).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome", code: "TIMEOUT" } });
  });

  function answering(generate: (response: ServerResponse, request: IncomingMessage) => void) {
    return serve((request, response) => {
      if (request.url === "/authenticate") {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ auth_token: token }));
        return;
      }
      request.resume();
      request.on("end", () => generate(response, request));
    });
  }

  it("an answer cut before its announced length is unknown (the label may be bought)", async () => {
    const url = await answering((response, request) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "400" });
      response.write('{"id":"L1","reference":"6A1');
      setTimeout(() => request.socket.destroy(), 20);
    });
    const result = await clientFor(transport, url).generateLabel(exampleLabelRequest());
    expect(result).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome" } });
  });

  it("an answer whose body stalls past the timeout is unknown", async () => {
    const url = await answering((response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"id":"L1",');
    });
    const result = await clientFor(transport, url, 150).generateLabel(exampleLabelRequest());
    expect(result).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome", code: "TIMEOUT" } });
  });

  it("a label in full is created; a refusal and a rate limit are read with their status and headers", async () => {
    let calls = 0;
    const url = await answering((response) => {
      calls += 1;
      response.setHeader("content-type", "application/json");
      if (calls === 1) {
        response.end(JSON.stringify({ message: "Étiquette créée", id: "L1", reference: "6A123", label_url: "https://labels.example/L1.pdf", tracking_url: "https://track.example/6A123" }));
      } else if (calls === 2) {
        response.statusCode = 422;
        response.end(JSON.stringify({ message: "Le code postal est invalide", errors: { "recipient.zip": ["invalide"] } }));
      } else {
        response.statusCode = 429;
        response.setHeader("retry-after", "7");
        response.end(JSON.stringify({ message: "Trop de requêtes" }));
      }
    });
    const client = clientFor(transport, url);
    expect(await client.generateLabel(exampleLabelRequest())).toMatchObject({ status: "created", label: { id: "L1", reference: "6A123" } });
    expect(await client.generateLabel(exampleLabelRequest())).toMatchObject({ status: "rejected", error: { kind: "rejected", status: 422 } });
    // The Retry-After header is read from the answer: a 429 says when to try again, nothing was charged.
    expect(await client.generateLabel(exampleLabelRequest())).toMatchObject({ status: "rejected", error: { kind: "rate_limited", status: 429, retryAfterMs: 7000 } });
  });
});
