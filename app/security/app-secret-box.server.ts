import { config, encryptionKeys } from "../config.server";
import { createSecretBox, type SecretBox } from "./secret-box.server";

let box: SecretBox | undefined;

/** The secret box built from ENCRYPTION_KEY (+ previous keys), once per process. */
export function appSecretBox(): SecretBox {
  box ??= createSecretBox(encryptionKeys(), config().ENCRYPTION_KEY_VERSION);
  return box;
}
