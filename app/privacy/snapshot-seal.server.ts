/**
 * Recipient data at rest (decision 0172). A label request keeps the recipient's name, address, phone and e-mail; the
 * stored copies (`PurchaseAttempt.requestJson`, `Label.requestSnapshotJson`) hold that part sealed with the app's
 * secret box (AES-256-GCM, `v<keyVersion>:…`, the same keys and rotation as label-service passwords):
 *
 *   { ...request, "recipient": { "sealed": "v2:base64(iv|tag|ciphertext)" } }
 *
 * Everything else (parcel, customs lines, carrier, reference) stays readable, so the purchase flow reads carrier and
 * format without a key. Readers that need the recipient (the customer data export) open it; rows written before
 * sealing (plain recipient) and redacted rows read as they are.
 */
import { encryptionSettingsFromEnv } from "../config.server";
import { createSecretBox, type SecretBox } from "../security/secret-box.server";

let box: SecretBox | undefined;

/** The box built from ENCRYPTION_* (the app's keys), once per process. */
export function snapshotBox(): SecretBox {
  if (!box) {
    const { keys, currentVersion } = encryptionSettingsFromEnv();
    box = createSecretBox(keys, currentVersion);
  }
  return box;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The sealed recipient's text, or undefined when the recipient is not sealed. */
export function sealedRecipient(snapshot: unknown): string | undefined {
  if (!isObject(snapshot) || !isObject(snapshot.recipient)) return undefined;
  const sealed = snapshot.recipient.sealed;
  return typeof sealed === "string" && Object.keys(snapshot.recipient).length === 1 ? sealed : undefined;
}

/** The key version a sealed recipient was written with (undefined when not sealed). */
export function sealedKeyVersion(snapshotJson: string): number | undefined {
  try {
    const sealed = sealedRecipient(JSON.parse(snapshotJson));
    const match = sealed ? /^v([0-9]+):/.exec(sealed) : null;
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The request as stored: JSON text with the recipient sealed. A request without a recipient object is kept as is. */
export function sealRequest(request: object, secretBox: SecretBox = snapshotBox()): string {
  const snapshot = { ...(request as Json) };
  if (isObject(snapshot.recipient)) {
    snapshot.recipient = { sealed: secretBox.encrypt(JSON.stringify(snapshot.recipient)).ciphertext };
  }
  return JSON.stringify(snapshot);
}

/** The stored request with its recipient readable again. Throws a SecretBoxError when the key is missing or wrong. */
export function openRequest(snapshotJson: string, secretBox: SecretBox = snapshotBox()): unknown {
  const snapshot: unknown = JSON.parse(snapshotJson);
  const sealed = sealedRecipient(snapshot);
  if (!sealed) return snapshot;
  return { ...(snapshot as Json), recipient: JSON.parse(secretBox.decrypt(sealed)) as unknown };
}

/** Re-seals a recipient written with an older key version under the current one (key rotation); null when nothing to do. */
export function resealRequest(snapshotJson: string, secretBox: SecretBox = snapshotBox()): string | null {
  const version = sealedKeyVersion(snapshotJson);
  if (version === undefined || version === secretBox.currentVersion) return null;
  return sealRequest(openRequest(snapshotJson, secretBox) as object, secretBox);
}
