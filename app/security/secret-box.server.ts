/**
 * AES-256-GCM for secrets at rest (label-service passwords). Each value gets a fresh 12-byte IV; the stored text is
 * `v<keyVersion>:<base64(iv | tag | ciphertext)>` so keys can be rotated: new values use the current version, old
 * ones still decrypt with the key of their version.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  readonly currentVersion: number;
  encrypt(plaintext: string): { ciphertext: string; keyVersion: number };
  decrypt(ciphertext: string): string;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

export function createSecretBox(keys: ReadonlyMap<number, Buffer>, currentVersion: number): SecretBox {
  const current = keys.get(currentVersion);
  if (!current || current.length !== 32) throw new SecretBoxError(`no 32-byte key for version ${currentVersion}`);
  for (const [version, key] of keys) {
    if (key.length !== 32) throw new SecretBoxError(`key version ${version} is not 32 bytes`);
  }
  return {
    currentVersion,
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current, iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const packed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
      return { ciphertext: `v${currentVersion}:${packed}`, keyVersion: currentVersion };
    },
    decrypt(stored) {
      const match = /^v([0-9]+):([A-Za-z0-9+/=]+)$/.exec(stored);
      if (!match) throw new SecretBoxError("stored secret is not in the v<version>:<base64> format");
      const key = keys.get(Number(match[1]));
      if (!key) throw new SecretBoxError(`no key for version ${match[1]}: set ENCRYPTION_PREVIOUS_KEYS`);
      const packed = Buffer.from(match[2]!, "base64");
      if (packed.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError("stored secret is truncated");
      const decipher = createDecipheriv("aes-256-gcm", key, packed.subarray(0, IV_BYTES));
      decipher.setAuthTag(packed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(packed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretBoxError("stored secret failed authentication (wrong key or tampered data)");
      }
    },
  };
}
