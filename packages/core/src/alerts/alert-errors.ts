import { OvationError } from "../errors.js";

/** Every error code the alert engine throws, documented in docs/alerts.md. */
export const ALERT_ERROR_CODES = {
  /** resolveAlert / compileAlertSet given a set that fails alertSetSchema (a ValidationError). */
  invalidConfig: "OVATION_ERR_ALERTS_INVALID_CONFIG",
  /** migrateAe3ToAe4 given a config that is already AE4. */
  alreadyAe4: "OVATION_ERR_ALERTS_ALREADY_AE4",
  /** migrateAe3ToAe4 given an invalid AE3 document (a ValidationError). */
  ae3Invalid: "OVATION_ERR_ALERTS_AE3_INVALID",
  /** The migrated set fails alertSetSchema (a bug in the migration). */
  migrationFailed: "OVATION_ERR_ALERTS_MIGRATION_FAILED",
} as const;

/** A migration that cannot run: the document is already AE4. */
export class AlertMigrationError extends OvationError {
  override readonly name: string = "AlertMigrationError";
}
