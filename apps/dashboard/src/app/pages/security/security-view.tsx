import { KeysSection } from "./keys-section.js";
import { PasswordSection } from "./password-section.js";
import { TwoFactorSection } from "./two-factor-section.js";

/** The security page (a chunk of its own: WebAuthn and the recovery codes are not needed at first load). */
export default function Security() {
  return (
    <div class="stack">
      <p class="lead">How you sign in. Every change here asks for a code we email you first.</p>
      <PasswordSection />
      <TwoFactorSection />
      <KeysSection />
    </div>
  );
}
