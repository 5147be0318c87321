import { describe, expect, it, vi } from "vitest";
import { createRowSelectionStore } from "./row-selection";

const page = ["a", "b", "c", "d", "e"];

describe("the rows ticked on Orders to ship", () => {
  it("ticks and unticks single rows, in the order they were ticked", () => {
    const store = createRowSelectionStore();
    store.change("single", true, "c", page);
    store.change("single", true, "a", page);
    expect(store.selection()).toEqual({ ids: ["c", "a"], all: false });
    expect(store.count()).toBe(2);
    expect(store.has("a")).toBe(true);
    expect(store.has("b")).toBe(false);
    store.change("single", false, "c", page);
    expect(store.selection()).toEqual({ ids: ["a"], all: false });
  });

  it("tells only the row whose tick changed, and the table whenever the count does", () => {
    const store = createRowSelectionStore();
    const rows = Object.fromEntries(page.map((id) => [id, vi.fn()]));
    for (const id of page) store.subscribeRow(id, rows[id]!);
    const table = vi.fn();
    store.subscribe(table);

    store.change("single", true, "b", page);
    expect(page.filter((id) => rows[id]!.mock.calls.length > 0)).toEqual(["b"]);
    expect(table).toHaveBeenCalledTimes(1);

    // Ticking a ticked row again changes nothing: nobody is told.
    store.change("single", true, "b", page);
    expect(rows.b).toHaveBeenCalledTimes(1);
    expect(table).toHaveBeenCalledTimes(1);

    // The page: every row not yet ticked is told, "b" is not.
    store.change("page", true, undefined, page);
    expect(page.map((id) => rows[id]!.mock.calls.length)).toEqual([1, 1, 1, 1, 1]);
    expect(table).toHaveBeenCalledTimes(2);
  });

  it("stops telling a row that unsubscribed", () => {
    const store = createRowSelectionStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribeRow("a", listener);
    unsubscribe();
    store.change("single", true, "a", page);
    expect(listener).not.toHaveBeenCalled();
  });

  it("ticks the page with the header checkbox and unticks it again", () => {
    const store = createRowSelectionStore();
    store.change("single", true, "b", page);
    store.change("page", true, undefined, page);
    expect(store.selection()).toEqual({ ids: page, all: false });
    expect(store.count()).toBe(5);
    store.change("page", false, undefined, page);
    expect(store.selection()).toEqual({ ids: [], all: false });
  });

  it("selects every matching order, then back to the page (Polaris's undo), or any tick leaves it", () => {
    const store = createRowSelectionStore();
    store.change("page", true, undefined, page);
    store.change("all", true, undefined, page);
    expect(store.count()).toBe("All");
    expect(store.selection()).toEqual({ ids: page, all: true });

    store.change("page", true, undefined, page);
    expect(store.count()).toBe(5);
    expect(store.selection().all).toBe(false);

    store.change("all", true, undefined, page);
    store.change("single", false, "a", page);
    expect(store.selection()).toEqual({ ids: ["b", "c", "d", "e"], all: false });
    expect(store.count()).toBe(4);
  });

  it("clears everything, 'all matching' included, and tells the ticked rows and the table", () => {
    const store = createRowSelectionStore();
    store.change("page", true, undefined, page);
    store.change("all", true, undefined, page);
    const row = vi.fn();
    const table = vi.fn();
    store.subscribeRow("b", row);
    store.subscribe(table);
    store.clear();
    expect(store.selection()).toEqual({ ids: [], all: false });
    expect(store.count()).toBe(0);
    expect(row).toHaveBeenCalledTimes(1);
    expect(table).toHaveBeenCalledTimes(1);
  });

  it("ticks or unticks a shift-click range of positions, either way round", () => {
    const store = createRowSelectionStore();
    store.change("multi", true, [3, 1], page);
    expect(store.selection().ids).toEqual(["b", "c", "d"]);
    store.change("multi", false, [2, 4], page);
    expect(store.selection().ids).toEqual(["b"]);
  });

  it("ticks a group of rows as a whole unless all of it is already ticked", () => {
    const store = createRowSelectionStore();
    store.change("single", true, "b", page);
    // Partly ticked: the whole group is ticked, whichever way the checkbox went.
    store.change("range", false, [1, 2], page);
    expect(store.selection().ids).toEqual(["b", "c"]);
    // Wholly ticked: the group is unticked.
    store.change("range", true, [1, 2], page);
    expect(store.selection().ids).toEqual([]);
  });
});
