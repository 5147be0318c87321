import { describe, expect, it } from "vitest";
import { readNote, storedNote } from "./notes";

describe("stored notes", () => {
  it("round-trip in English and French", () => {
    expect(readNote(storedNote("on hold", "en attente"))).toEqual({ en: "on hold", fr: "en attente" });
  });
  it("read a message without French, a plain string, and nothing", () => {
    expect(readNote(JSON.stringify({ message: "timeout", httpStatus: 504 }))).toEqual({ en: "timeout", fr: "timeout" });
    expect(readNote("Shopify said no")).toEqual({ en: "Shopify said no", fr: "Shopify said no" });
    expect(readNote(JSON.stringify({ status: 500 }))).toBeNull();
    expect(readNote(null)).toBeNull();
  });
});
