/**
 * The rows ticked on "Orders to ship", kept outside React's state (decision 0195). Each row subscribes to its own id,
 * so a tick notifies that row only; the table subscribes to the count, which it renders in a deferred pass. It applies
 * Polaris IndexTable's selection changes the way Polaris's `useIndexResourceState` does (single rows, shift-click
 * ranges, the page, "select all N matching").
 */

/** Polaris's `SelectionType` values (its enum is a string enum with these values). */
export type SelectionKind = "all" | "page" | "multi" | "single" | "range";

export interface RowSelection {
  /** The ticked ids, in the order they were ticked. */
  ids: readonly string[];
  /** Every order matching the list's search and filters ("select all N matching"), not just the ticked ones. */
  all: boolean;
}

export interface RowSelectionStore {
  /** Is this row ticked? (a row's snapshot) */
  has(id: string): boolean;
  /** Calls `listener` when this row's tick changes. Returns the unsubscribe function. */
  subscribeRow(id: string, listener: () => void): () => void;
  /** What the table shows: the number of ticked rows, or "All" when every matching order is selected. */
  count(): number | "All";
  /** Calls `listener` when the count (or "all") changes. */
  subscribe(listener: () => void): () => void;
  /** The selection as "Create labels" posts it. */
  selection(): RowSelection;
  /** Unticks everything (another search, filter, tab or page of the list). */
  clear(): void;
  /**
   * Applies one of IndexTable's `onSelectionChange` calls. `rowIds` are the page's rows in their order (ranges are
   * positions in it).
   */
  change(
    kind: SelectionKind,
    selecting: boolean,
    target: string | readonly [number, number] | undefined,
    rowIds: readonly string[],
  ): void;
}

export function createRowSelectionStore(): RowSelectionStore {
  let ticked = new Set<string>();
  let all = false;
  const rowListeners = new Map<string, Set<() => void>>();
  const listeners = new Set<() => void>();

  function commit(next: Set<string>, nextAll: boolean): void {
    const changed: string[] = [];
    for (const id of ticked) if (!next.has(id)) changed.push(id);
    for (const id of next) if (!ticked.has(id)) changed.push(id);
    const countChanged = next.size !== ticked.size || nextAll !== all;
    ticked = next;
    all = nextAll;
    for (const id of changed) for (const listener of rowListeners.get(id) ?? []) listener();
    if (countChanged || changed.length > 0) for (const listener of listeners) listener();
  }

  function inRange(rowIds: readonly string[], target: unknown): string[] {
    if (!Array.isArray(target)) return [];
    const [from, to] = target as [number, number];
    return rowIds.slice(Math.max(0, Math.min(from, to)), Math.max(from, to) + 1);
  }

  return {
    has: (id) => ticked.has(id),
    subscribeRow(id, listener) {
      let set = rowListeners.get(id);
      if (!set) rowListeners.set(id, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) rowListeners.delete(id);
      };
    },
    count: () => (all ? "All" : ticked.size),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    selection: () => ({ ids: [...ticked], all }),
    clear: () => commit(new Set(), false),
    change(kind, selecting, target, rowIds) {
      // Any change other than "select all" leaves "every matching order" (as Polaris's own hook does).
      const nextAll = kind === "all" ? selecting : false;
      let next = new Set(ticked);
      switch (kind) {
        case "all":
        case "page":
          next = new Set(selecting ? rowIds : []);
          break;
        case "single":
          if (typeof target !== "string") break;
          if (selecting) next.add(target);
          else next.delete(target);
          break;
        case "multi":
          for (const id of inRange(rowIds, target)) {
            if (selecting) next.add(id);
            else next.delete(id);
          }
          break;
        case "range": {
          // A group of rows: ticked as a whole unless all of it already is.
          const group = inRange(rowIds, target);
          const whole = group.length > 0 && group.every((id) => ticked.has(id));
          const partly = group.some((id) => ticked.has(id));
          const tick = !whole && (selecting || partly);
          for (const id of group) {
            if (tick) next.add(id);
            else next.delete(id);
          }
          break;
        }
      }
      commit(next, nextAll);
    },
  };
}
