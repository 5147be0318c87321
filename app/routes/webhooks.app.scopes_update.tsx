import type { ActionFunctionArgs } from "@remix-run/node";
import { webhookAction } from "../webhooks/route.server";

export const action = ({ request }: ActionFunctionArgs) => webhookAction(request, "APP_SCOPES_UPDATE");
