// Per-request values rendered on the server (CSP nonce). On the client the nonce is empty:
// browsers hide it from the DOM anyway.
import { createContext, useContext } from "react";

export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
