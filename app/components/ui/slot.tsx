import { cloneElement, isValidElement, type ReactNode, type Ref } from "react";

type AnyProps = Record<string, unknown>;

function composeRefs<T>(...refs: Array<Ref<T> | undefined>) {
  return (node: T | null) => {
    const cleanups = refs.map((ref) => {
      if (typeof ref === "function") return ref(node);
      if (ref) (ref as { current: T | null }).current = node;
      return undefined;
    });
    return () => cleanups.forEach((cleanup, i) => (typeof cleanup === "function" ? cleanup() : setRef(refs[i], null)));
  };
}

function setRef<T>(ref: Ref<T> | undefined, value: T | null) {
  if (typeof ref === "function") ref(value);
  else if (ref) (ref as { current: T | null }).current = value;
}

/**
 * Renders its only child with the slot's props merged in (`<Button asChild><Link/></Button>`), as
 * Radix's Slot does: the child's props win, event handlers run both (the child's first), styles
 * merge, class names join, refs compose. Ours is a few lines instead of a 1 KB gzip dependency in
 * every page (front-end budget, `npm run lighthouse`).
 */
export function Slot({ children, ...slotProps }: AnyProps & { children?: ReactNode }) {
  if (!isValidElement<AnyProps>(children)) return null;
  const childProps = children.props;
  const merged: AnyProps = { ...slotProps, ...childProps };
  for (const key of Object.keys(slotProps)) {
    const slotValue = slotProps[key];
    const childValue = childProps[key];
    if (childValue === undefined) continue;
    if (/^on[A-Z]/.test(key) && typeof slotValue === "function" && typeof childValue === "function") {
      merged[key] = (...args: unknown[]) => {
        const result: unknown = childValue(...args);
        slotValue(...args);
        return result;
      };
    } else if (key === "style") {
      merged[key] = { ...(slotValue as object), ...(childValue as object) };
    } else if (key === "className") {
      merged[key] = [slotValue, childValue].filter(Boolean).join(" ");
    } else if (key === "ref") {
      merged[key] = composeRefs(slotValue as Ref<unknown>, childValue as Ref<unknown>);
    }
  }
  return cloneElement(children, merged);
}
