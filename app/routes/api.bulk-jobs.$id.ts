/** GET /api/bulk-jobs/:id: the job's status, counts and items. See app/bulk/api.server.ts. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleBulkApi } from "../bulk/api.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => handleBulkApi(request, { kind: "job", id: params.id ?? "" });
export const action = ({ request, params }: ActionFunctionArgs) => handleBulkApi(request, { kind: "job", id: params.id ?? "" });
