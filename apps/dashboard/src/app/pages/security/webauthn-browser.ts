/** What the browser gives for a new key, as JSON for `POST /api/users/@me/webauthn`. */
export interface RegistrationJson {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; attestationObject: string; transports?: string[] };
  [key: string]: unknown;
}

type JsonCredentialApi = {
  parseCreationOptionsFromJSON?: (options: unknown) => PublicKeyCredentialCreationOptions;
};

/** Whether this browser can register a hardware key or passkey. */
export function webauthnAvailable(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function" && typeof navigator.credentials?.create === "function";
}

function fromBase64Url(text: string): ArrayBuffer {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return bytes.buffer;
}

function toBase64Url(buffer: ArrayBuffer): string {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The server's JSON options as the browser API wants them (the standard parser when present). */
function creationOptions(json: Record<string, unknown>): PublicKeyCredentialCreationOptions {
  const parse = (window.PublicKeyCredential as unknown as JsonCredentialApi).parseCreationOptionsFromJSON;
  if (typeof parse === "function") return parse(json);
  const user = json["user"] as { id: string; name: string; displayName?: string };
  const exclude = (json["excludeCredentials"] as Array<{ id: string; type: "public-key"; transports?: AuthenticatorTransport[] }> | undefined) ?? [];
  return {
    ...(json as unknown as PublicKeyCredentialCreationOptions),
    challenge: fromBase64Url(String(json["challenge"])),
    user: { id: fromBase64Url(user.id), name: user.name, displayName: user.displayName ?? user.name },
    excludeCredentials: exclude.map((c) => ({ ...c, id: fromBase64Url(c.id) })),
  };
}

/** Asks the browser (and the key) to create a credential for the server's options; null when the user cancelled. */
export async function createCredential(options: Record<string, unknown>): Promise<RegistrationJson | null> {
  let credential: Credential | null;
  try {
    credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  } catch (error) {
    if (error instanceof DOMException && error.name === "NotAllowedError") return null;
    throw error;
  }
  if (!(credential instanceof PublicKeyCredential)) return null;
  const attestation = credential.response as AuthenticatorAttestationResponse;
  return {
    id: credential.id,
    rawId: toBase64Url(credential.rawId),
    type: "public-key",
    response: {
      clientDataJSON: toBase64Url(attestation.clientDataJSON),
      attestationObject: toBase64Url(attestation.attestationObject),
      transports: typeof attestation.getTransports === "function" ? attestation.getTransports() : [],
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}
