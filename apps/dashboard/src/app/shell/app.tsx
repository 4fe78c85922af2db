import { Route, Router, Switch, useLocation } from "wouter-preact";
import { AppContext, useApp, useSessionState } from "../app-context.js";
import type { AppServices } from "../app-context.js";
import type { TokenSet } from "../auth/oauth.js";
import { CallbackScreen, SignedOutScreen } from "./callback-screen.js";
import { ChannelProvider, useChannel } from "../channel.js";
import { PAGES } from "../pages/registry.js";
import { pageTitle } from "../pages/kit/page.js";
import { ConfirmProvider } from "../ui/confirm.js";
import type { EatBridge } from "../api.js";
import { EatProvider } from "../ui/eat-prompt.js";
import { ToastProvider } from "../ui/toast.js";
import { Layout } from "./layout.js";
import { SignInScreen } from "./sign-in-screen.js";

function NotFound() {
  return <p>There is no page at this address. Pick one in the navigation.</p>;
}

/** The signed-in part: every registered page inside the layout, on the channel chosen in the switcher. */
function SignedIn() {
  const state = useSessionState();
  const [location] = useLocation();
  if (state.status !== "signed-in") return <SignInScreen message={state.message} returnTo={location} />;
  return (
    <ChannelProvider>
      <Pages tokens={state.tokens} />
    </ChannelProvider>
  );
}

function Pages({ tokens }: { tokens: TokenSet }) {
  const { channel } = useChannel();
  // A page mounts afresh when the channel changes, so it loads the new channel's data.
  const channelKey = channel === null ? "own" : String(channel.user_id);
  return (
    <Switch>
      {PAGES.map((page) => (
        <Route key={page.id} path={page.path}>
          {(params) => (
            <Layout title={pageTitle(page, params)} tokens={tokens} page={page}>
              <page.component key={channelKey} params={params} />
            </Layout>
          )}
        </Route>
      ))}
      <Route>
        <Layout title="Page not found" tokens={tokens}>
          <NotFound />
        </Layout>
      </Route>
    </Switch>
  );
}

function Routes() {
  return (
    <Switch>
      <Route path="/callback" component={CallbackScreen} />
      <Route path="/signed-out" component={SignedOutScreen} />
      <Route>
        <SignedIn />
      </Route>
    </Switch>
  );
}

function Providers({ eat }: { eat: EatBridge }) {
  const { boot, identity } = useApp();
  return (
    <ToastProvider>
      <ConfirmProvider>
        <EatProvider api={{ request: () => identity.eat.requestVerification(), verify: (code) => identity.eat.verifyCode(code) }} bridge={eat}>
          <Router base={boot.base_path}>
            <Routes />
          </Router>
        </EatProvider>
      </ConfirmProvider>
    </ToastProvider>
  );
}

/** The dashboard app: services, shared dialogs and toasts, routing below the dashboard base path. */
export function App({ services, eat }: { services: AppServices; eat: EatBridge }) {
  return (
    <AppContext.Provider value={services}>
      <Providers eat={eat} />
    </AppContext.Provider>
  );
}
