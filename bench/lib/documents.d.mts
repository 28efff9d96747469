export function makePdf(pages: readonly string[], opts?: { encrypted?: boolean }): Buffer;
export function makeDocx(): Promise<Buffer>;
export function makeXlsx(): Promise<Buffer>;
export function makeBigXlsx(rows: number): Promise<Buffer>;
export function makePptx(slides: readonly string[][]): Promise<Buffer>;
export function makeOds(): Buffer;
export function makeZipBomb(mb: number): Buffer;
