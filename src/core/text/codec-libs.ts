/**
 * The encoding libraries, loaded only when a file is not UTF-8 or a call names an encoding (decode.ts
 * imports this module with `import()`; the bundle builds it as a file of its own, `mcpfs-codecs.cjs`, so
 * neither start-up nor a UTF-8 read parses iconv-lite's tables).
 */
import { analyse } from "chardet";
import iconv from "iconv-lite";

export { analyse, iconv };
