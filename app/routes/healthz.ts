import { healthResponse } from "../observability/endpoints.server";

/** GET /healthz: the process answers (no database call, no authentication). */
export const loader = () => healthResponse();
