/**
 * App Bridge as the page finds it: inside the Shopify admin `window.shopify` has the save bar and toasts; in the
 * demo (outside the admin) there is no App Bridge and the page falls back to Polaris (decision 0173).
 */
import { useEffect, useState } from "react";

export interface AppBridgeUi {
  toast: { show(message: string, options?: { isError?: boolean }): unknown };
  saveBar: { show(id: string): unknown; hide(id: string): unknown };
}

export function appBridgeUi(scope: unknown = typeof window === "undefined" ? undefined : window): AppBridgeUi | undefined {
  const shopify = (scope as { shopify?: Partial<AppBridgeUi> } | undefined)?.shopify;
  return typeof shopify?.toast?.show === "function" && typeof shopify.saveBar?.show === "function" ? (shopify as AppBridgeUi) : undefined;
}

/** App Bridge once mounted in the browser (never during server rendering, so hydration matches). */
export function useAppBridgeUi(): AppBridgeUi | undefined {
  const [ui, setUi] = useState<AppBridgeUi | undefined>(undefined);
  useEffect(() => setUi(appBridgeUi()), []);
  return ui;
}
