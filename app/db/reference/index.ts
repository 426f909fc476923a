export * from "./sectors";
export * from "./professions";
export * from "./departments";
export * from "./colleges";
