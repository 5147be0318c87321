import { describe, expect, it } from "vitest";
import { createSecretBox, SecretBoxError } from "./secret-box.server";

const keyA = Buffer.alloc(32, 0xa1);
const keyB = Buffer.alloc(32, 0xb2);

describe("secret box (AES-256-GCM)", () => {
  it("round-trips and never stores the plaintext", () => {
    const box = createSecretBox(new Map([[1, keyA]]), 1);
    const { ciphertext, keyVersion } = box.encrypt("démo-password");
    expect(keyVersion).toBe(1);
    expect(ciphertext).toMatch(/^v1:/);
    expect(ciphertext).not.toContain("démo-password");
    expect(Buffer.from(ciphertext.slice(3), "base64").toString("utf8")).not.toContain("password");
    expect(box.decrypt(ciphertext)).toBe("démo-password");
  });

  it("uses a fresh IV for every value", () => {
    const box = createSecretBox(new Map([[1, keyA]]), 1);
    const ivs = new Set(Array.from({ length: 50 }, () => Buffer.from(box.encrypt("same").ciphertext.slice(3), "base64").subarray(0, 12).toString("hex")));
    expect(ivs.size).toBe(50);
  });

  it("decrypts values written with an older key after rotation", () => {
    const old = createSecretBox(new Map([[1, keyA]]), 1).encrypt("old-secret").ciphertext;
    const rotated = createSecretBox(
      new Map([
        [1, keyA],
        [2, keyB],
      ]),
      2,
    );
    expect(rotated.decrypt(old)).toBe("old-secret");
    expect(rotated.encrypt("new").ciphertext).toMatch(/^v2:/);
  });

  it("refuses tampered data, a wrong key and an unknown version", () => {
    const box = createSecretBox(new Map([[1, keyA]]), 1);
    const { ciphertext } = box.encrypt("secret");
    const bytes = Buffer.from(ciphertext.slice(3), "base64");
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    expect(() => box.decrypt(`v1:${bytes.toString("base64")}`)).toThrow(SecretBoxError);
    expect(() => createSecretBox(new Map([[1, keyB]]), 1).decrypt(ciphertext)).toThrow(/failed authentication/);
    expect(() => createSecretBox(new Map([[3, keyB]]), 3).decrypt(ciphertext)).toThrow(/no key for version 1/);
    expect(() => box.decrypt("plain text")).toThrow(/format/);
  });
});
