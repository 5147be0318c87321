import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigate, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  ChoiceList,
  EmptyState,
  IndexFilters,
  IndexFiltersMode,
  IndexTable,
  InlineStack,
  Link,
  Page,
  Text,
  useSetIndexFiltersMode,
  type IndexTableProps,
  type IndexFiltersProps,
} from "@shopify/polaris";
import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import { requireAdmin } from "../auth.server";
import db from "../db.server";
import { formatDate } from "../i18n/dates";
import { dateContextFor } from "../i18n/dates.server";
import type { MessageKey } from "../i18n/messages";
import { AppErrorPage } from "../components/AppErrorPage";
import { useT } from "../i18n/translate";
import { answeringShopifyBusy } from "../shopify/busy.server";
import { listParamsSchema, loadOrdersList } from "../labels/orders-list.server";
import { LIST_TABS, ZONES, type ListTab } from "../labels/orders-list";
import type { DestinationZone } from "../shipping/customs";
import type { PrimaryAction } from "../labels/status";
import { bulkSelectionForm } from "../components/bulk/selection";
import { createRowSelectionStore, type RowSelectionStore } from "../components/bulk/row-selection";
import { BULK_JOB_MAX_ORDERS } from "../bulk/types";

export async function loader({ request }: LoaderFunctionArgs) {
  const { admin, shop } = await requireAdmin(request);
  const params = listParamsSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [list, dates] = await answeringShopifyBusy(
    Promise.all([loadOrdersList({ db, admin }, shop, params), dateContextFor(request, admin, shop)]),
  );
  return {
    params: { q: params.q ?? "", tab: params.tab, zone: params.zone },
    ...list,
    // Dates are formatted here, once, in the merchant's language and the shop's time zone (never again in the browser).
    rows: list.rows.map((row) => ({ ...row, date: formatDate(row.createdAt, dates) })),
  };
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

const ACTION_KEYS: Record<PrimaryAction, MessageKey> = {
  create: "orders.action.create",
  review: "orders.action.review",
  check: "orders.action.check",
  retryFulfillment: "orders.action.retryFulfillment",
  openLabel: "orders.action.review",
  view: "orders.action.view",
};

function orderPath(id: string): string {
  return `/app/orders/${id.split("/").pop()}`;
}

/**
 * One row. Memoized, with props that keep their identity between renders (the loader's row object, its position and
 * the selection store), and it reads its own tick from the store: selecting a row re-renders that row only (issue 19,
 * decision 0195), without rendering the table around it.
 */
const OrderRow = memo(function OrderRow({
  row,
  position,
  store,
}: {
  row: Row;
  position: number;
  store: RowSelectionStore;
}) {
  const t = useT();
  const selected = useSyncExternalStore(
    useCallback((listener: () => void) => store.subscribeRow(row.id, listener), [store, row.id]),
    () => store.has(row.id),
    () => false, // nothing is ticked in the server's HTML
  );
  const path = orderPath(row.id);
  return (
    <IndexTable.Row id={row.id} position={position} selected={selected}>
      <IndexTable.Cell>
        <Link dataPrimaryLink url={path} removeUnderline>
          <Text as="span" fontWeight="semibold">
            {row.name}
          </Text>
        </Link>
      </IndexTable.Cell>
      <IndexTable.Cell>{row.date}</IndexTable.Cell>
      <IndexTable.Cell>{row.recipient ?? "—"}</IndexTable.Cell>
      <IndexTable.Cell>{[row.city, row.country].filter(Boolean).join(", ") || "—"}</IndexTable.Cell>
      <IndexTable.Cell>{row.weightGrams == null ? "—" : `${row.weightGrams} g`}</IndexTable.Cell>
      <IndexTable.Cell>
        <Badge tone={row.view.tone}>{t(`label.status.${row.view.status}`, row.view.progress)}</Badge>
      </IndexTable.Cell>
      <IndexTable.Cell>{t(`fulfillment.${row.fulfillment}`)}</IndexTable.Cell>
      <IndexTable.Cell>
        <InlineStack gap="200">
          <Button size="slim" url={path} variant={row.view.emphasised ? "primary" : undefined}>
            {t(ACTION_KEYS[row.view.primaryAction])}
          </Button>
          {row.labelUrl ? (
            <Button size="slim" url={row.labelUrl} target="_blank">
              {t("orders.action.openLabel")}
            </Button>
          ) : null}
        </InlineStack>
      </IndexTable.Cell>
    </IndexTable.Row>
  );
});

const SEARCH_DELAY_MS = 400;

/**
 * The search field, tabs and destination filter. Memoized apart from the table: selecting rows changes the table's
 * state only, so this part (tabs measure themselves, the filters build popovers) does not render again.
 */
const ListFilters = memo(function ListFilters({
  params,
  loading,
  go,
}: {
  params: { q: string; tab: ListTab; zone: DestinationZone[] };
  loading: boolean;
  go: (changes: Record<string, string | undefined>) => void;
}) {
  const t = useT();
  // A search or filter on the URL opens the filter bar, so the merchant sees what narrows the list.
  const { mode, setMode } = useSetIndexFiltersMode(
    params.q !== "" || params.zone.length > 0 ? IndexFiltersMode.Filtering : IndexFiltersMode.Default,
  );
  const [query, setQuery] = useState(params.q);
  useEffect(() => setQuery(params.q), [params.q]);

  // The search runs once typing pauses.
  useEffect(() => {
    if (query === params.q) return;
    const timer = setTimeout(() => go({ q: query.trim() || undefined }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, params.q, go]);

  const tabs: IndexFiltersProps["tabs"] = LIST_TABS.map((tab) => ({
    id: `orders-tab-${tab}`,
    content: t(`orders.tab.${tab}`),
    onAction: () => undefined,
  }));
  const zoneFilter = (
    <ChoiceList
      title={t("orders.filter.zone")}
      titleHidden
      allowMultiple
      choices={ZONES.map((zone) => ({ label: t(`orders.zone.${zone}`), value: zone }))}
      selected={params.zone}
      onChange={(zones) => go({ zone: zones.join(",") || undefined })}
    />
  );
  return (
    <IndexFilters
      tabs={tabs}
      selected={Math.max(0, LIST_TABS.indexOf(params.tab))}
      onSelect={(index) => go({ tab: LIST_TABS[index] === "all" ? undefined : LIST_TABS[index] })}
      queryValue={query}
      queryPlaceholder={t("orders.search.placeholder")}
      filteringAccessibilityLabel={t("orders.search.label")}
      filteringAccessibilityTooltip={t("orders.search.label")}
      onQueryChange={setQuery}
      onQueryClear={() => {
        setQuery("");
        go({ q: undefined });
      }}
      filters={[{ key: "zone", label: t("orders.filter.zone"), filter: zoneFilter, shortcut: true }]}
      appliedFilters={
        params.zone.length > 0
          ? [
              {
                key: "zone",
                label: `${t("orders.filter.zone")}: ${params.zone.map((zone) => t(`orders.zone.${zone}`)).join(", ")}`,
                onRemove: () => go({ zone: undefined }),
              },
            ]
          : []
      }
      onClearAll={() => {
        setQuery("");
        go({ q: undefined, zone: undefined });
      }}
      mode={mode}
      setMode={setMode}
      canCreateNewView={false}
      loading={loading}
    />
  );
});

/**
 * The table and its selection. The selection lives in a store (app/components/bulk/row-selection.ts), not in React's
 * state: each row subscribes to its own tick, so ticking a row renders that row only, neither this component nor the
 * table around it (decision 0195).
 *
 * The tick is urgent; the table's selection mode is not. The count handed to the table (which decides selection mode,
 * the bar's "N selected" and its checkbox) follows as a deferred value: the first tick of a page view turns the whole
 * table into selection mode (Polaris re-renders every row and its checkbox, mounts and measures the bulk-action bar),
 * and React does that after the ticked row is painted, in a render it may interrupt (decision 0187). The table element
 * is memoized on that deferred count, so the store's synchronous update of this component does not render it.
 */
function OrdersTable({
  listKey,
  rows,
  params,
  next,
  previous,
  go,
  empty,
}: {
  /** The list's search, filters, tab and page (its URL query). */
  listKey: string;
  rows: Row[];
  params: { q: string; tab: ListTab; zone: DestinationZone[] };
  next: string | null;
  previous: string | null;
  go: (changes: Record<string, string | undefined>) => void;
  empty: ReactNode;
}) {
  const t = useT();
  const [store] = useState(createRowSelectionStore);
  const count = useSyncExternalStore(store.subscribe, store.count, () => 0);
  const selectedItemsCount = useDeferredValue(count);
  // Another search, filter, tab or page starts a new selection: "all matching" never carries over to a list the
  // merchant did not select from. The table stays mounted (the rows React can keep, and the focus, stay).
  useEffect(() => store.clear(), [store, listKey]);

  // Polaris's calls, applied to the store against the page's rows in their order (shift-click ranges are positions).
  const rowIds = useMemo(() => rows.map((row) => row.id), [rows]);
  const onSelectionChange = useCallback<NonNullable<IndexTableProps["onSelectionChange"]>>(
    (kind, selecting, target) => store.change(`${kind}`, selecting, target, rowIds),
    [store, rowIds],
  );

  // The table's other props keep their identity between selections: a selection changes the selection only.
  const resourceName = useMemo(
    () => ({ singular: t("orders.resource.singular"), plural: t("orders.resource.plural") }),
    [t],
  );
  const headings = useMemo(
    () =>
      (["order", "date", "recipient", "destination", "weight", "label", "fulfillment", "actions"] as const).map(
        (column) => ({
          title: t(`orders.column.${column}`),
        }),
      ) as [{ title: string }, ...{ title: string }[]],
    [t],
  );
  const pagination = useMemo(
    () => ({
      hasNext: Boolean(next),
      hasPrevious: Boolean(previous),
      onNext: () => go({ after: next ?? undefined }),
      onPrevious: () => go({ before: previous ?? undefined }),
    }),
    [next, previous, go],
  );

  // "Create labels" posts the selection to the preflight page: the ids of the ticked rows, or (every row of the page
  // ticked, then "select all") the list's search and filters, whose matching orders the server reads itself. The
  // action reads the store when clicked, so the bar's actions keep their identity (Polaris measures the bar's buttons
  // again whenever they change).
  const submit = useSubmit();
  const promotedBulkActions = useMemo(
    () => [
      {
        content: t("orders.bulk.create"),
        onAction: () =>
          submit(bulkSelectionForm({ ...store.selection(), params }), { method: "post", action: "/app/bulk/new" }),
      },
    ],
    [t, submit, store, params],
  );

  const rowElements = useMemo(
    () => rows.map((row, index) => <OrderRow key={row.id} row={row} position={index} store={store} />),
    [rows, store],
  );
  const paginatedSelectAllActionText = t("orders.bulk.selectAllMatching");
  const paginatedSelectAllText = t("orders.bulk.allMatching", { max: BULK_JOB_MAX_ORDERS });
  return useMemo(
    () => (
      <IndexTable
        resourceName={resourceName}
        itemCount={rows.length}
        selectedItemsCount={selectedItemsCount}
        onSelectionChange={onSelectionChange}
        promotedBulkActions={promotedBulkActions}
        hasMoreItems={Boolean(next)}
        paginatedSelectAllActionText={paginatedSelectAllActionText}
        paginatedSelectAllText={paginatedSelectAllText}
        emptyState={empty}
        headings={headings}
        pagination={pagination}
      >
        {rowElements}
      </IndexTable>
    ),
    [
      resourceName,
      rows.length,
      selectedItemsCount,
      onSelectionChange,
      promotedBulkActions,
      next,
      paginatedSelectAllActionText,
      paginatedSelectAllText,
      empty,
      headings,
      pagination,
      rowElements,
    ],
  );
}

export default function OrdersToShip() {
  const { rows, next, previous, params, scanned, partial } = useLoaderData<typeof loader>();
  const t = useT();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();

  const go = useCallback(
    (changes: Record<string, string | undefined>) => {
      const nextParams = new URLSearchParams(searchParams);
      for (const key of ["after", "before"]) nextParams.delete(key);
      for (const [key, value] of Object.entries(changes)) {
        if (value) nextParams.set(key, value);
        else nextParams.delete(key);
      }
      navigate(`?${nextParams.toString()}`, { replace: true });
    },
    [navigate, searchParams],
  );
  const filtersActive = params.q !== "" || params.zone.length > 0;

  const empty =
    params.tab === "labelled" && !filtersActive ? (
      <EmptyState heading={t("orders.empty.labelled.heading")} image="/empty-orders.svg">
        <p>{t("orders.empty.labelled.body")}</p>
      </EmptyState>
    ) : filtersActive || params.tab !== "all" ? (
      <EmptyState heading={t("orders.empty.filtered.heading")} image="/empty-orders.svg">
        <p>{t("orders.empty.filtered.body")}</p>
      </EmptyState>
    ) : (
      <EmptyState heading={t("orders.empty.heading")} image="/empty-orders.svg">
        <p>{t("orders.empty.body")}</p>
      </EmptyState>
    );

  return (
    <Page title={t("orders.title")}>
      <Form method="post" action="/app/print">
        <input type="hidden" name="unprinted" value="1" />
        <InlineStack gap="200" blockAlign="center">
          <Button submit>{t("print.button.unprinted")}</Button>
          <Text as="span" tone="subdued">
            {t("print.button.unprintedHelp")}
          </Text>
        </InlineStack>
      </Form>
      <BlockStack gap="400">
        <Card padding="0">
          <ListFilters params={params} loading={navigation.state === "loading"} go={go} />
          <OrdersTable listKey={searchParams.toString()} rows={rows} params={params} next={next} previous={previous} go={go} empty={empty} />
        </Card>
        {partial ? (
          <InlineStack gap="200" blockAlign="center">
            <Text as="p" tone="subdued">
              {t("orders.partial", { count: scanned })}
            </Text>
            {next ? <Button onClick={() => go({ after: next })}>{t("orders.partial.continue")}</Button> : null}
          </InlineStack>
        ) : null}
      </BlockStack>
    </Page>
  );
}

// Inside the layout: the app's frame and navigation stay, the error is said in the merchant's language.
export function ErrorBoundary() {
  return <AppErrorPage />;
}
