// Types for the vendored Preact and htm modules, which ship none, so that
// `tsc -p board/internal/web/check` checks the page's modules.
// Only what the page uses, as Preact documents it.

declare module 'preact' {
  export function h(type: any, props: any, ...children: any[]): any;
  export function render(vnode: any, parent: Element): void;
  export class Component<P = any> {
    props: P;
    shouldComponentUpdate?(next: P): boolean;
    render(props: P): any;
  }
}

declare module 'preact/hooks' {
  export function useState<S>(initial: S | (() => S)): [S, (next: S | ((prev: S) => S)) => void];
  export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void;
  export function useRef<T>(initial: T): { current: T };
  export function useMemo<T>(factory: () => T, deps: readonly unknown[]): T;
  export function useCallback<T extends (...args: any[]) => any>(fn: T, deps: readonly unknown[]): T;
}

declare module 'htm' {
  const htm: { bind(h: any): (strings: TemplateStringsArray, ...values: any[]) => any };
  export default htm;
}
