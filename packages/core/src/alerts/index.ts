/**
 * @ovation/core/alerts: the AE4 alert engine (catalog, schemas, JsonLogic conditions, layered resolve,
 * placeholders, AE3 migration). Isomorphic: runs in Node and in the browser, no Node built-ins, no
 * undici, nunjucks, pino or isolated-vm (a test checks the module graph).
 */
export { ALERT_CATALOG, ALERT_TYPES } from "./catalog-data.js";
export {
  isAlertType,
  getCatalogType,
  getCatalogPlatform,
  catalogParameters,
  catalogPairs,
  exampleAlertData,
} from "./catalog.js";
export type { AlertType } from "./catalog.js";
export type {
  JsonValue,
  CatalogAlertType,
  CatalogParameter,
  CatalogParameterOption,
  CatalogParameterType,
  CatalogPlatform,
  CatalogDefaultTexts,
  CatalogExample,
} from "./catalog-types.js";
export { ALERT_LIMITS } from "./limits.js";
export { BUILT_IN_PLATFORM_NAMES, NEUTRAL_ALERT_TYPES, builtInPlatforms, catalogWithPlatforms, pluginPlatform } from "./platform-registry.js";
export type { RegisteredPlatform } from "./platform-registry.js";
export { LAYOUT_BASE_FONT_PX, pixelsToRelativeFontSize, convertPixelFontSizes } from "./font-size.js";
export {
  templateFieldShape,
  templateLayerSchema,
  hexColorSchema,
  mediaHrefSchema,
  styleNameSchema,
  fontFamilySchema,
  TEMPLATE_FIELDS,
  ENGINE_DEFAULT_TEMPLATE,
  KNOWN_LAYOUTS,
} from "./template-settings.js";
export type { AlertTemplate, TemplateField, TemplateLayer } from "./template-settings.js";
export {
  CONDITION_OPERATORS,
  MASK_WIDTH,
  conditionIssues,
  conditionSchema,
  compileCondition,
  compileConditionMask,
  conditionVariables,
  forcedValues,
} from "./conditions.js";
export type {
  Condition,
  ConditionIssue,
  ConditionOperator,
  ConditionContext,
  CompiledCondition,
  CompiledConditionMask,
} from "./conditions.js";
export { alertTypeSchema, alertEffectSchema, typeDefaultSchema, variationSchema, alertSetSchema } from "./schemas.js";
export type { AlertSet, AlertSetInput, TypeDefault, Variation } from "./schemas.js";
export {
  alertDataSchema,
  storedTemplateNameSchema,
  customTemplateSchema,
  customFieldKeySchema,
  customCodeTemplateSchema,
  alertTriggerTemplateSchema,
  alertTriggerSchema,
  alertTestSchema,
  isCustomCodeTemplate,
  templateFromCustom,
} from "./trigger.js";
export type { AlertData, AlertTrigger, AlertTest, CustomTemplate, CustomCodeTemplate } from "./trigger.js";
export { resolveAlert, explainAlert, alertSetEffect, compileAlertSet, buildConditionContext } from "./resolve.js";
export type {
  AlertInput,
  AlertResolution,
  AlertSetEffect,
  AlertExplanation,
  DisabledReason,
  FieldExplanation,
  FieldSource,
  CompiledAlertSet,
} from "./resolve.js";
export {
  renderPlaceholderSegments,
  renderPlaceholdersHtml,
  fillMessage,
  escapeHtml,
  lookupPath,
  placeholderText,
  placeholderPaths,
} from "./placeholders.js";
export type { PlaceholderSegment } from "./placeholders.js";
export { buildDefaultAlertSet } from "./default-set.js";
export {
  AE3_TYPE_MAP,
  AE3_TYPES,
  AE3_PARAMETERS,
  AE3_TIER_PARAMETER,
  AE3_DEFAULT_TEXTS,
  AE3_ENGINE_DEFAULTS,
  AE3_TEXT_LENGTH,
  ae3DocumentSchema,
  ae3SettingsSchema,
  ae3TierSchema,
} from "./ae3.js";
export type { Ae3Document, Ae3DocumentInput, Ae3Settings, Ae3Type, Ae3TypeConfig } from "./ae3.js";
export { migrateAe3ToAe4, migrateAe3Alert, migrateAe3Text, migrateAe3Settings } from "./migrate.js";
export { ALERT_ERROR_CODES, AlertMigrationError } from "./alert-errors.js";
