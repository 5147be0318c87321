/** POST /api/bulk-jobs/:id/retry: the failed (blocked, refused) items run again. See app/bulk/api.server.ts. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleBulkApi } from "../bulk/api.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => handleBulkApi(request, { kind: "retry", id: params.id ?? "" });
export const action = ({ request, params }: ActionFunctionArgs) => handleBulkApi(request, { kind: "retry", id: params.id ?? "" });
