// @vitest-environment happy-dom
/**
 * `usePolarisDictionary` (decision 0189): the dictionary entry.client read before hydrating is used as it is; one
 * missing (the language changed during a visit, or the file could not be read before hydrating) is fetched from the
 * build's file for that language and the page rerenders with it, showing the words at hand meanwhile.
 */
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Locale } from "./locale";
import { POLARIS_DICTIONARY_URLS, PolarisDictionariesContext, usePolarisDictionary, type PolarisDictionaries } from "./polaris";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  vi.unstubAllGlobals();
});

const EN = { Polaris: { Common: { cancel: "Cancel" } } };
const FR = { Polaris: { Common: { cancel: "Annuler" } } };

function Word({ locale }: { locale: Locale }) {
  const dictionary = usePolarisDictionary(locale) as typeof EN;
  return <span>{dictionary.Polaris?.Common.cancel ?? "(none)"}</span>;
}

function render(known: PolarisDictionaries, locale: Locale) {
  const container = document.createElement("div");
  root = createRoot(container);
  act(() =>
    root!.render(
      <PolarisDictionariesContext.Provider value={known}>
        <Word locale={locale} />
      </PolarisDictionariesContext.Provider>,
    ),
  );
  return container;
}

describe("usePolarisDictionary", () => {
  it("uses the dictionary read before hydrating, without fetching", () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    expect(render({ fr: FR }, "fr").textContent).toBe("Annuler");
    expect(fetch).not.toHaveBeenCalled();
  });

  it("fetches a missing language from its file and rerenders with it, showing the words at hand meanwhile", async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(FR), { headers: { "Content-Type": "application/json" } }));
    vi.stubGlobal("fetch", fetch);
    const container = render({ en: EN }, "fr");
    expect(container.textContent).toBe("Cancel");
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(fetch).toHaveBeenCalledWith(POLARIS_DICTIONARY_URLS.fr, expect.objectContaining({ signal: expect.any(AbortSignal) }));
    expect(container.textContent).toBe("Annuler");
  });
});
