/** POST /api/bulk-jobs/:id/cancel: the items not started are cancelled. See app/bulk/api.server.ts. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleBulkApi } from "../bulk/api.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => handleBulkApi(request, { kind: "cancel", id: params.id ?? "" });
export const action = ({ request, params }: ActionFunctionArgs) => handleBulkApi(request, { kind: "cancel", id: params.id ?? "" });
