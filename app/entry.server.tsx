import { PassThrough } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { PolarisDictionariesContext } from "./i18n/polaris";
import { POLARIS_DICTIONARIES } from "./i18n/polaris.server";
import { bootJobs, closeDatabase, STOP_GRACE_MS, stopJobs } from "./jobs/boot.server";
import { errorFields, moduleLogger, withRequestId } from "./observability/logger.server";
import { appLabelFiles } from "./print/runtime.server";
import { addDocumentResponseHeaders } from "./shopify.server";

// The job queue, with the recurring reconciler: purchases whose answer was lost are looked up in the background.
bootJobs();
// The label file cache sweeps its expired files now and hourly (they show recipients' addresses: decision 0205).
appLabelFiles();

/** What the production server (server.mjs) needs from the app: its logger, the request context and the shutdown. */
export const operations = { moduleLogger, withRequestId, stopJobs, closeDatabase, STOP_GRACE_MS };

export const streamTimeout = 5000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  addDocumentResponseHeaders(request, responseHeaders);
  const userAgent = request.headers.get("user-agent");
  const readyEvent = userAgent && isbot(userAgent) ? "onAllReady" : "onShellReady";

  // Polaris's words in both languages: each page renders its merchant's (app/i18n/polaris.ts).
  const page = (
    <PolarisDictionariesContext.Provider value={POLARIS_DICTIONARIES}>
      <RemixServer context={remixContext} url={request.url} />
    </PolarisDictionariesContext.Provider>
  );
  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(page, {
      [readyEvent]() {
        const body = new PassThrough();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error) {
        reject(error);
      },
      onError(error) {
        responseStatusCode = 500;
        moduleLogger("render").error(errorFields(error), "render error");
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

/** Errors thrown by loaders and actions, logged once as JSON (the request id joins from the request context). */
export function handleError(error: unknown, { request }: { request: Request }): void {
  if (request.signal.aborted) return;
  moduleLogger("remix").error({ ...errorFields(error), method: request.method, path: new URL(request.url).pathname }, "request failed");
}
