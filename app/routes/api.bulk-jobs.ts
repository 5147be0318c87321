/** GET /api/bulk-jobs (the shop's recent jobs) and POST /api/bulk-jobs (create a job). See app/bulk/api.server.ts. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleBulkApi } from "../bulk/api.server";

export const loader = ({ request }: LoaderFunctionArgs) => handleBulkApi(request, { kind: "collection" });
export const action = ({ request }: ActionFunctionArgs) => handleBulkApi(request, { kind: "collection" });
