import type { Surface } from "../config/index.js";
import type { CatalogEntry } from "./catalog.js";

/**
 * Tool catalogs computed at build time. Empty here; the bundle (scripts/bundle.mjs) replaces this module
 * with the generated catalogs, so only an unbundled run builds the tools at startup.
 */
export const prebuiltCatalogs: Partial<Record<Surface, readonly CatalogEntry[]>> = {};
