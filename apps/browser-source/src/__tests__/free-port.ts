export { freePort } from "../../../server/src/__tests__/services/free-port.js";
