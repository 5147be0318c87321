/**
 * The demo admin host's frame, bundles and direct API (dev only: 404 unless in demo mode). See
 * app/demo/admin-host.server.ts.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { adminHostEnabled, bundleFile, framePage } from "../demo/admin-host.server";
import { DEMO_SHOP_DOMAIN } from "../demo/seed-demo-shop.server";
import { readApiBody } from "../http/api-auth.server";
import { unauthenticated } from "../shopify.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!adminHostEnabled()) throw new Response("Not found", { status: 404 });
  const splat = params["*"] ?? "";
  if (splat === "frame") return framePage(new URL(request.url));
  if (splat.startsWith("bundle/")) return bundleFile(splat.slice("bundle/".length));
  throw new Response("Not found", { status: 404 });
}

const querySchema = z.object({ query: z.string().min(1).max(10_000), variables: z.record(z.string(), z.unknown()).default({}) });

/** `shopify.query` for the demo shop: the admin's direct API, here the emulator through the app's own client. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (!adminHostEnabled() || params["*"] !== "graphql") throw new Response("Not found", { status: 404 });
  const body = await readApiBody(request, querySchema);
  if (!body.ok) return Response.json({ errors: [{ message: `Bad request (${body.reason})` }] }, { status: 400 });
  const { admin } = await unauthenticated.admin(DEMO_SHOP_DOMAIN);
  const response = await admin.graphql(body.data.query, { variables: body.data.variables });
  return new Response(await response.text(), { headers: { "Content-Type": "application/json; charset=utf-8" } });
}
