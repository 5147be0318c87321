/** Classification of real socket failures by Node's own fetch (undici), on loopback. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { exampleLabelRequest } from "./__fixtures__/example-request";
import { fakeJwt } from "./__fixtures__/fake-fetch";
import { createLabelServiceClient } from "./client";
import { Semaphore } from "./semaphore";
import { InMemoryTokenCache } from "./token-cache";

const servers: Server[] = [];

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function clientFor(baseUrl: string, generateTimeoutMs = 10_000) {
  return createLabelServiceClient({
    shop: "net.myshopify.com",
    account: { baseUrl, email: "a@b.fr", password: "pw-secret" },
    tokenCache: new InMemoryTokenCache(),
    semaphore: new Semaphore(2),
    options: { generateTimeoutMs },
  });
}

const token = fakeJwt({ exp: 2_000_000_000 });

describe("real sockets", () => {
  it("a refused connection is network (nothing sent)", async () => {
    const url = await serve(() => undefined);
    const server = servers.pop();
    await new Promise((resolve) => server?.close(resolve));
    const result = await clientFor(url).generateLabel(exampleLabelRequest());
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
    const result = await clientFor(url).generateLabel(exampleLabelRequest());
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
    const result = await clientFor(url, 100).generateLabel(exampleLabelRequest());
    expect(result).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome", code: "TIMEOUT" } });
  });
});
