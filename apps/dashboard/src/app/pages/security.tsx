import { definePage } from "./page.js";
import { KeysSection } from "./security/keys-section.js";
import { PasswordSection } from "./security/password-section.js";
import { TwoFactorSection } from "./security/two-factor-section.js";

function Security() {
  return (
    <div class="stack">
      <p class="lead">How you sign in. Every change here asks for a code we email you first.</p>
      <PasswordSection />
      <TwoFactorSection />
      <KeysSection />
    </div>
  );
}

/** Security: password (with an EAT), two-step verification and recovery codes, hardware keys. */
export const securityPage = definePage({
  id: "security",
  path: "/security",
  title: "Security",
  nav: { label: "Security", order: 90, group: "Account" },
  component: Security,
});
