import * as z from "zod";
import type { CatalogDefaultTexts, CatalogParameter } from "./catalog-types.js";

/** One catalog alert type a plugin's platform emits, with its parameters and default texts. */
export interface PlatformAlertDeclaration {
  /** A catalog alert type name (`follow`, `subscribe`, `raid`, `donation`...). */
  readonly type: string;
  /** The template parameters (placeholders) the plugin puts in the notification's `event.data`. */
  readonly parameters: readonly CatalogParameter[];
  /** Default title/subtitle/chat_message of a new alert set for this type on this platform. */
  readonly default: CatalogDefaultTexts;
}

/**
 * What a plugin tells the host about its platform (optional `PlatformPlugin.platform`). The id is
 * `metadata.platform`. Without a declaration, or without `alerts`, the platform gets the
 * platform-neutral types (follow, subscribe, re-subscribe, gift-subscribe, raid, donation).
 */
export interface PlatformDeclaration {
  /** Display name (for example `FakeChat`); default: the platform id. */
  readonly name?: string;
  /** The catalog alert types the plugin emits; default: the platform-neutral types. */
  readonly alerts?: readonly PlatformAlertDeclaration[];
}

const jsonValue: z.ZodType<unknown> = z.json();
const label = z.string().min(1).max(200);

/** zod schema of a {@link CatalogParameter} in a plugin's declaration. */
export const catalogParameterSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "must be 1-64 characters of A-Z, a-z, 0-9 and _, not starting with a digit"),
  type: z.enum(["string", "number", "boolean", "enum", "object"]),
  default: jsonValue,
  example: jsonValue,
  description: z.string().max(500),
  conditional: z.boolean(),
  options: z.array(z.strictObject({ name: label, value: z.string().max(200) })).max(100).optional(),
});

const defaultTextsSchema = z.strictObject({
  title: z.string().max(1000).optional(),
  subtitle: z.string().max(1000).optional(),
  chat_message: z.string().max(1000).optional(),
});

/** zod schema of a {@link PlatformDeclaration}; alert type names are checked against the catalog by the host. */
export const platformDeclarationSchema = z.strictObject({
  name: z.string().min(1).max(64).optional(),
  alerts: z
    .array(
      z.strictObject({
        type: z.string().min(1).max(64),
        parameters: z.array(catalogParameterSchema).max(50),
        default: defaultTextsSchema,
      }),
    )
    .max(100)
    .refine((alerts) => new Set(alerts.map((a) => a.type)).size === alerts.length, "must name each alert type once")
    .optional(),
});
