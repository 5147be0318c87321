/**
 * What "Create labels" on Orders to ship posts to the preflight page (parsed by parseSelection in
 * app/bulk/ui-pages.server.ts): the ticked rows' ids in one field, or the list's search and filters when every
 * matching order is selected.
 */
export function bulkSelectionForm(selection: {
  all: boolean;
  ids: readonly string[];
  params: { q: string; tab: string; zone: readonly string[] };
}): Record<string, string> {
  if (selection.all) {
    return { scope: "matching", q: selection.params.q, tab: selection.params.tab, zone: selection.params.zone.join(",") };
  }
  return { scope: "page", orderIds: selection.ids.map((id) => id.split("/").pop() ?? id).join(",") };
}
