import type { Platform } from "../platforms.js";

/** A JSON value as found in alert data, catalog examples and parameter defaults. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Value type of a catalog parameter; `enum` parameters list their `options`. */
export type CatalogParameterType = "string" | "number" | "boolean" | "enum" | "object";

/** One choice of an `enum` parameter. */
export interface CatalogParameterOption {
  readonly name: string;
  readonly value: string;
}

/** A template parameter of an alert type on one platform: a placeholder and, if `conditional`, a condition variable. */
export interface CatalogParameter {
  readonly name: string;
  readonly type: CatalogParameterType;
  readonly default: JsonValue;
  readonly example: JsonValue;
  readonly description: string;
  /** Whether the parameter may be used in variation conditions (the reference dashboard offers only these). */
  readonly conditional: boolean;
  readonly options?: readonly CatalogParameterOption[];
}

/** Default texts of an alert type on one platform. */
export interface CatalogDefaultTexts {
  readonly title?: string;
  readonly subtitle?: string;
  readonly chat_message?: string;
}

/** An alert type as it exists on one platform. */
export interface CatalogPlatform {
  /** A built-in platform, or a plugin's platform id (see `catalogWithPlatforms`). */
  readonly platform: Platform | (string & {});
  readonly parameters: readonly CatalogParameter[];
  readonly default: CatalogDefaultTexts;
}

/** A named set of example parameters, used for test alerts and previews. */
export interface CatalogExample {
  readonly name: string;
  readonly platform: Platform;
  readonly parameters: { readonly [key: string]: JsonValue };
}

/** One AE4 alert type of the catalog with every platform it exists on. */
export interface CatalogAlertType {
  readonly type: string;
  readonly name: string;
  readonly description: string;
  readonly icon: { readonly name: string; readonly type: string };
  readonly platforms: readonly CatalogPlatform[];
  readonly examples: readonly CatalogExample[];
}
