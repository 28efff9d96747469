// Bundle stand-in for zod's locale index: only the default (English) messages are shipped.
export { default as en } from "zod/v4/locales/en.js";
