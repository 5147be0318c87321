/**
 * Loading states (issue 16 item 12, decision 0174): what a page shows while data it does not wait for comes, and
 * App Bridge's loading bar inside the admin (`shopify.loading`), absent in the demo.
 */
import { useNavigation, useRevalidator } from "@remix-run/react";
import { BlockStack, SkeletonBodyText, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";

/** App Bridge's loading indicator, when the page runs inside the admin. */
export function shopifyLoading(on: boolean): void {
  const shopify = typeof window === "undefined" ? undefined : (window as { shopify?: { loading?: (on: boolean) => unknown } }).shopify;
  if (typeof shopify?.loading === "function") shopify.loading(on);
}

/** The admin's loading bar follows the app's own navigations (a page load, a form post, a refresh). */
export function useShopifyLoadingBar(): void {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const loading = navigation.state !== "idle" || revalidator.state !== "idle";
  useEffect(() => {
    shopifyLoading(loading);
  }, [loading]);
  useEffect(() => () => shopifyLoading(false), []);
}

/** Reloads the page's data once `ready` resolves to true (a background lookup has filled its cache). */
export function useRefreshWhenReady(ready: Promise<boolean> | null | undefined): void {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!ready) return;
    let live = true;
    ready.then(
      (ok) => {
        if (live && ok) revalidator.revalidate();
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
    // The revalidator's identity changes with its state; the promise is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready]);
}

/** A one-line skeleton with what is coming, for a part of the page that fills in later. */
export function LoadingLine({ text }: { text: string }) {
  return (
    <BlockStack gap="100">
      <SkeletonBodyText lines={1} />
      <Text as="p" tone="subdued" variant="bodySm">
        {text}
      </Text>
    </BlockStack>
  );
}

/** A promise from the loader (not awaited there), as state: undefined until it resolves, then its value. */
export function useResolved<T>(promise: Promise<T> | T): T | undefined {
  const [value, setValue] = useState<{ of: Promise<T> | T; value: T } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    Promise.resolve(promise).then(
      (resolved) => {
        if (live) setValue({ of: promise, value: resolved });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [promise]);
  // The last value stays while a newer promise (the page reloaded) resolves.
  return value?.value;
}
