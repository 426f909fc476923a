/** React Router's chunk source with the document's handoff encoding made lazy (decision 029). */
export function lazyHandoff(source: string): string;
