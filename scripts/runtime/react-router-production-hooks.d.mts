/** React Router's chunk source with the document's handoff encoding made lazy (decision 029). */
export function lazyHandoff(source: string): string;
/** React Router's chunk source with the partial manifest's text kept by what it depends on (decision 032). */
export function keptPartialManifest(source: string): string;
/** React Router's chunk sources with the route tables of `<ServerRouter>` kept per build (decision 033). */
export function keptRouteTables(source: string): string;
