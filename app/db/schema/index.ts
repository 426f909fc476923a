export * from "./auth";
export * from "./enums";
export * from "./platform";
export * from "./product";
export * from "./collaboration";
export * from "./trust";
export * from "./mediation";
export * from "./notifications";
