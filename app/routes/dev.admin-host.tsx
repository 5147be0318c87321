/** The demo's admin host page (dev only: 404 unless in demo mode). See app/demo/admin-host.server.ts. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminHostEnabled, hostPage } from "../demo/admin-host.server";

export async function loader({ request }: LoaderFunctionArgs) {
  if (!adminHostEnabled()) throw new Response("Not found", { status: 404 });
  return hostPage(new URL(request.url));
}
