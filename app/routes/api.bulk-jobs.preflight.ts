/** POST /api/bulk-jobs/preflight: the free check of a selection (nothing bought). See app/bulk/api.server.ts. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleBulkApi } from "../bulk/api.server";

export const loader = ({ request }: LoaderFunctionArgs) => handleBulkApi(request, { kind: "preflight" });
export const action = ({ request }: ActionFunctionArgs) => handleBulkApi(request, { kind: "preflight" });
