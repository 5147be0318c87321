import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { loopbackServers } from "../../test/helpers/loopback";
import { leanFetch } from "./lean-fetch.server";

const loopback = loopbackServers();

/** A loopback server whose handler gets the request's body in full. */
function serve(handler: (request: IncomingMessage, response: ServerResponse, body: Buffer) => void): Promise<string> {
  return loopback.serve((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => handler(request, response, Buffer.concat(chunks)));
  });
}

describe("leanFetch", () => {
  it("answers like fetch: status, status text, headers (repeated ones kept), text and json", async () => {
    const url = await serve((_request, response) => {
      response.statusCode = 201;
      response.setHeader("content-type", "application/json; charset=utf-8");
      response.setHeader("set-cookie", ["a=1", "b=2"]);
      response.setHeader("x-shopify-api-deprecated-reason", "none");
      response.end(JSON.stringify({ ok: "déjà" }));
    });
    const answer = await leanFetch(`${url}/x`);
    const reference = await fetch(`${url}/x`);
    expect({ status: answer.status, statusText: answer.statusText, ok: answer.ok }).toEqual({ status: reference.status, statusText: reference.statusText, ok: reference.ok });
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(Object.fromEntries(answer.headers.entries())).toMatchObject({ "x-shopify-api-deprecated-reason": "none" });
    expect(await answer.json()).toEqual(await reference.json());
    expect(answer.bodyUsed).toBe(true);
    await expect(answer.text()).rejects.toThrow(TypeError);
  });

  it("keeps a header that is not ASCII as fetch does (a byte string), instead of failing the answer", async () => {
    const url = await serve((_request, response) => {
      // Written as raw bytes: UTF-8 in one header, Latin-1 in the other (a French service may send either).
      response.socket!.write(
        'HTTP/1.1 200 OK\r\nx-utf8: cr\xc3\xa9\xc3\xa9e\r\nx-latin1: cr\xe9\xe9e\r\ncontent-disposition: attachment; filename="\xc3\xa9t\xc3\xa9.pdf"\r\ncontent-length: 2\r\n\r\n{}',
        "latin1",
      );
    });
    const answer = await leanFetch(url);
    const reference = await fetch(url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-utf8")).toBe(reference.headers.get("x-utf8"));
    expect(answer.headers.get("content-disposition")).toBe(reference.headers.get("content-disposition"));
    // Latin-1 bytes are not UTF-8: undici has already replaced them, so only "no failure" can be kept.
    expect(answer.headers.get("x-latin1")).toEqual(expect.any(String));
    expect(await answer.json()).toEqual({});
  });

  it("sends the method, headers (from a record, a Headers or pairs) and body as given, with fetch's default content types", async () => {
    const seen: { method?: string; headers: IncomingMessage["headers"]; body: string }[] = [];
    const url = await serve((request, response, body) => {
      seen.push({ method: request.method, headers: request.headers, body: body.toString("utf8") });
      response.end();
    });
    await leanFetch(url, { method: "post", headers: { "X-Token": "t1", "content-type": "application/json" }, body: '{"a":1}' });
    await leanFetch(url, { method: "POST", headers: new Headers({ "x-token": "t2" }), body: "plain" });
    await leanFetch(url, { method: "POST", headers: [["x-token", "t3"]], body: new URLSearchParams({ q: "é" }) });
    await leanFetch(url, { method: "PUT", body: new TextEncoder().encode("octets") });
    // fetch's default headers, unless the caller set its own.
    expect(seen.map((one) => [one.headers.accept, one.headers["user-agent"]])).toEqual(Array.from({ length: 4 }, () => ["*/*", "node"]));
    expect(seen.map((one) => [one.method, one.headers["x-token"], one.headers["content-type"], one.body])).toEqual([
      ["POST", "t1", "application/json", '{"a":1}'],
      ["POST", "t2", "text/plain;charset=UTF-8", "plain"],
      ["POST", "t3", "application/x-www-form-urlencoded;charset=UTF-8", "q=%C3%A9"],
      ["PUT", undefined, undefined, "octets"],
    ]);
  });

  it("gives bytes back unchanged", async () => {
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe, 0x80]);
    const url = await serve((_request, response) => response.end(bytes));
    const answer = await leanFetch(url);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(bytes);
  });

  it("reads every body at once: a caller that never reads it does not hold the connection", async () => {
    const ports: number[] = [];
    const url = await serve((request, response) => {
      ports.push(request.socket.remotePort!);
      response.end("x".repeat(10_000));
    });
    for (let i = 0; i < 4; i += 1) {
      const answer = await leanFetch(url);
      expect(answer.status).toBe(200);
      // Time for the body to arrive (it is read without anyone asking), not a bound on anything.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // One connection, kept alive and reused for every call.
    expect(new Set(ports).size).toBe(1);
  });

  it("fails like fetch: a refused connection is a TypeError whose cause has the code", async () => {
    // Port 1 on loopback: nothing listens there, and no other test can take it.
    const error = await leanFetch("http://127.0.0.1:1/").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("fetch failed");
    expect(((error as Error).cause as { code?: string }).code).toBe("ECONNREFUSED");
  });

  it("an aborted signal rejects with its reason, before the answer and in the body", async () => {
    const url = await serve((request, response) => {
      if (request.url === "/slow-body") {
        response.writeHead(200);
        response.write("{");
      }
    });
    const aborted = AbortSignal.abort(new Error("gone"));
    await expect(leanFetch(url, { signal: aborted })).rejects.toThrow("gone");
    await expect(leanFetch(`${url}/never`, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: "TimeoutError" });
    const answer = await leanFetch(`${url}/slow-body`, { signal: AbortSignal.timeout(1_000) });
    expect(answer.status).toBe(200);
    await expect(answer.text()).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("an abort is not held back until a hanging connection completes (a TLS handshake that never ends)", async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket)); // accepts, never speaks TLS
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      // Without the fix this waits for undici's 10 s connect timeout, past this test's 5 s limit.
      await expect(leanFetch(`https://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: "TimeoutError" });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 5_000);

  it("a connection lost in the body rejects the read with a TypeError whose cause has the code", async () => {
    const url = await serve((request, response) => {
      response.writeHead(200, { "content-length": "50" });
      response.write("{");
      setTimeout(() => request.socket.destroy(), 10);
    });
    const answer = await leanFetch(url);
    const error = await answer.text().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as Error).cause as { code?: string }).code).toBe("UND_ERR_SOCKET");
  });
});
