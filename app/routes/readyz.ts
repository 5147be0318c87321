import { appReadiness } from "../observability/app-sources.server";
import { readinessResponse } from "../observability/endpoints.server";

/** GET /readyz: database reachable, migrations applied, job queue running; 503 otherwise (no authentication). */
export const loader = async () => readinessResponse(await appReadiness());
