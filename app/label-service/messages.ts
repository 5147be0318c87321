/**
 * Merchant-readable error messages in English and French. Each one says what happened, whether anything was charged,
 * and what to do next.
 */
import { LabelServiceError, type LabelServiceOperation } from "./errors";

const OPERATION_EN: Record<LabelServiceOperation, string> = {
  authenticate: "signing in",
  generate_label: "creating the label",
  list_labels: "listing labels",
  carrier_services: "looking up carrier services",
};
const OPERATION_FR: Record<LabelServiceOperation, string> = {
  authenticate: "la connexion",
  generate_label: "la création de l'étiquette",
  list_labels: "la lecture de la liste des étiquettes",
  carrier_services: "la recherche des services du transporteur",
};

function ref(reference: string | undefined, lang: "en" | "fr"): string {
  if (!reference) return "";
  return lang === "en" ? ` (reference ${reference})` : ` (référence ${reference})`;
}

export interface ErrorContext {
  operation: LabelServiceOperation;
  environment: string;
  /** custom_reference of the label request, for generate_label. */
  reference?: string;
}

export function authError(ctx: ErrorContext, status: number | undefined, body: string | undefined, detail?: string): LabelServiceError {
  const extra = detail ? ` (${detail})` : "";
  return new LabelServiceError({
    kind: "auth",
    operation: ctx.operation,
    status,
    body,
    serviceMessage: detail,
    message: `The label service refused the e-mail or password of the ${ctx.environment} account${extra}. Nothing was charged. Check the account in Settings, then try again.`,
    messageFr: `Le service d'étiquettes a refusé l'e-mail ou le mot de passe du compte ${ctx.environment}${extra}. Rien n'a été facturé. Vérifiez le compte dans Réglages, puis réessayez.`,
  });
}

/**
 * The e-mail and password were accepted (a token was just issued), but the service refused that fresh token for the
 * operation too. The credentials are not the problem: the account may lack the right for it, or the service's sign-in
 * and the operation disagree. Nothing was processed.
 */
export function freshTokenRefusedError(ctx: ErrorContext, body: string | undefined, detail?: string): LabelServiceError {
  const extra = detail ? ` (${detail})` : "";
  return new LabelServiceError({
    kind: "auth",
    operation: ctx.operation,
    status: 401,
    body,
    serviceMessage: detail,
    message: `The label service signed the ${ctx.environment} account in, then refused its new access token while ${OPERATION_EN[ctx.operation]}${ref(ctx.reference, "en")} (HTTP 401)${extra}. The e-mail and password were accepted; the service did not let this account do this. Nothing was charged. Try again in a few minutes; if it persists, ask the label service whether this account is allowed to do it, with this message.`,
    messageFr: `Le service d'étiquettes a connecté le compte ${ctx.environment}, puis a refusé son nouveau jeton d'accès pendant ${OPERATION_FR[ctx.operation]}${ref(ctx.reference, "fr")} (HTTP 401)${extra}. L'e-mail et le mot de passe ont été acceptés ; le service n'a pas autorisé ce compte à faire cette opération. Rien n'a été facturé. Réessayez dans quelques minutes ; si cela persiste, demandez au service d'étiquettes si ce compte y est autorisé, avec ce message.`,
  });
}

export function rejectedError(
  ctx: ErrorContext,
  status: number | undefined,
  body: string | undefined,
  detail: string | undefined,
  fieldErrors?: Record<string, string[]>,
): LabelServiceError {
  const what = status === undefined ? "" : ` (HTTP ${status})`;
  const en = detail ? `: ${detail}` : "";
  const action =
    ctx.operation === "generate_label"
      ? ["Correct the order or shipping data named above, then create the label again.", "Corrigez les données de la commande ou de l'envoi indiquées, puis recréez l'étiquette."]
      : ["Try again; if it persists, contact support with this message.", "Réessayez ; si cela persiste, contactez le support avec ce message."];
  return new LabelServiceError({
    kind: "rejected",
    operation: ctx.operation,
    status,
    body,
    serviceMessage: detail,
    fieldErrors,
    message: `The label service rejected ${OPERATION_EN[ctx.operation]}${ref(ctx.reference, "en")}${what}${en}. Nothing was charged. ${action[0]}`,
    messageFr: `Le service d'étiquettes a refusé ${OPERATION_FR[ctx.operation]}${ref(ctx.reference, "fr")}${what}${en}. Rien n'a été facturé. ${action[1]}`,
  });
}

export function localValidationError(ctx: ErrorContext, fieldErrors: Record<string, string[]>): LabelServiceError {
  const list = Object.entries(fieldErrors)
    .map(([field, messages]) => `${field}: ${messages.join(", ")}`)
    .join("; ");
  return new LabelServiceError({
    kind: "rejected",
    operation: ctx.operation,
    fieldErrors,
    serviceMessage: list,
    message: `The label request${ref(ctx.reference, "en")} is incomplete or invalid and was not sent: ${list}. Nothing was charged. Correct the order or shipping settings, then try again.`,
    messageFr: `La demande d'étiquette${ref(ctx.reference, "fr")} est incomplète ou invalide et n'a pas été envoyée : ${list}. Rien n'a été facturé. Corrigez la commande ou les réglages d'expédition, puis réessayez.`,
  });
}

export function unknownOutcomeError(
  ctx: ErrorContext,
  reason: string,
  extra: { status?: number; body?: string; code?: string; cause?: unknown; serviceMessage?: string } = {},
): LabelServiceError {
  const generate = ctx.operation === "generate_label";
  return new LabelServiceError({
    kind: "unknown_outcome",
    operation: ctx.operation,
    ...extra,
    message: generate
      ? `No usable answer from the label service while creating the label${ref(ctx.reference, "en")}: ${reason}. A label may have been bought. Do not create it again: it will be looked up in the service's label list first.`
      : `No usable answer from the label service while ${OPERATION_EN[ctx.operation]}: ${reason}. Try again in a moment.`,
    messageFr: generate
      ? `Pas de réponse exploitable du service d'étiquettes pendant la création de l'étiquette${ref(ctx.reference, "fr")} : ${reason}. Une étiquette a peut-être été achetée. Ne la recréez pas : elle sera d'abord recherchée dans la liste des étiquettes du service.`
      : `Pas de réponse exploitable du service d'étiquettes pendant ${OPERATION_FR[ctx.operation]} : ${reason}. Réessayez dans un instant.`,
  });
}

export function rateLimitedError(ctx: ErrorContext, retryAfterMs: number | undefined, status: number, body: string | undefined): LabelServiceError {
  const seconds = retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new LabelServiceError({
    kind: "rate_limited",
    operation: ctx.operation,
    status,
    body,
    retryAfterMs,
    message: `The label service is receiving too many requests (HTTP ${status}) while ${OPERATION_EN[ctx.operation]}${ref(ctx.reference, "en")}. Nothing was charged. Try again ${seconds ? `in ${seconds} s` : "in a minute"}.`,
    messageFr: `Le service d'étiquettes reçoit trop de demandes (HTTP ${status}) pendant ${OPERATION_FR[ctx.operation]}${ref(ctx.reference, "fr")}. Rien n'a été facturé. Réessayez ${seconds ? `dans ${seconds} s` : "dans une minute"}.`,
  });
}

export function networkError(ctx: ErrorContext, host: string, code: string | undefined, cause: unknown): LabelServiceError {
  const why = code ? ` (${code})` : "";
  return new LabelServiceError({
    kind: "network",
    operation: ctx.operation,
    code,
    cause,
    message: `Could not connect to the label service at ${host}${why} while ${OPERATION_EN[ctx.operation]}${ref(ctx.reference, "en")}. Nothing was sent or charged. Check the service URL of the ${ctx.environment} account in Settings, or try again later.`,
    messageFr: `Connexion impossible au service d'étiquettes ${host}${why} pendant ${OPERATION_FR[ctx.operation]}${ref(ctx.reference, "fr")}. Rien n'a été envoyé ni facturé. Vérifiez l'adresse du service du compte ${ctx.environment} dans Réglages, ou réessayez plus tard.`,
  });
}

export function protocolError(ctx: ErrorContext, problem: string, status: number | undefined, body: string | undefined): LabelServiceError {
  const generate = ctx.operation === "generate_label";
  return new LabelServiceError({
    kind: "protocol",
    operation: ctx.operation,
    status,
    body,
    serviceMessage: problem,
    message: `The label service answered in an unexpected format while ${OPERATION_EN[ctx.operation]}${ref(ctx.reference, "en")}: ${problem}.${generate ? " A label may have been bought: it will be looked up before any new attempt." : " Try again; if it persists, contact support with this message."}`,
    messageFr: `Le service d'étiquettes a répondu dans un format inattendu pendant ${OPERATION_FR[ctx.operation]}${ref(ctx.reference, "fr")} : ${problem}.${generate ? " Une étiquette a peut-être été achetée : elle sera recherchée avant toute nouvelle tentative." : " Réessayez ; si cela persiste, contactez le support avec ce message."}`,
  });
}
