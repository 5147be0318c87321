import type { LoaderFunctionArgs } from "@remix-run/node";
import { config } from "../config.server";
import { metricsWithAppSource } from "../observability/app-sources.server";
import { metricsResponse } from "../observability/endpoints.server";

/** GET /metrics: Prometheus text, with `Authorization: Bearer $METRICS_TOKEN`; off (404) when METRICS_TOKEN is unset. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  metricsResponse(request, config().METRICS_TOKEN, () => metricsWithAppSource().registry);
