import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { config } from "../../config.server";

/** Shopify opens the app with ?shop=...; the demo goes straight to the app; anyone else gets the login form. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("shop") || config().ETIQUETTE_DEMO) {
    throw redirect(`/app${url.search}`);
  }
  throw redirect(`/auth/login${url.search}`);
}
