/** What the browser-source page reads from `<script type="application/json" id="ovation-bootstrap">`. */
export interface BrowserSourceBootstrap {
  type: string;
  access_token: string;
  /** Base URL of the API (`{api_base}/browser-source/api/<token>/config`). */
  api_base: string;
  /** Where the socket.io server listens. */
  socket_url: string;
}
