// The part of Vue 3's API that `@campus/subapp-sdk/vue` uses, for compiling the SDK without Vue installed (Vue is an
// optional peer: only a Vue sub-app has it). Not shipped: the packed declarations import the app's own 'vue', whose
// real types a Vue app's type check applies (the Vue starter's build runs it).
declare module 'vue' {
  export interface Ref<T = unknown> {
    value: T;
  }
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars, @typescript-eslint/no-wrapper-object-types -- as Vue declares it
  export interface InjectionKey<T> extends Symbol {}
  export type Component = object;
  export interface App {
    provide<T>(key: InjectionKey<T> | string, value: T): this;
    use(plugin: unknown, ...options: unknown[]): this;
    mount(root: Element | string): unknown;
    unmount(): void;
    config: { errorHandler?: (error: unknown, instance: unknown, info: string) => void };
  }
  export function createApp(root: Component, props?: Record<string, unknown> | null): App;
  export function h(type: Component, props?: Record<string, unknown> | null): unknown;
  export function inject<T>(key: InjectionKey<T> | string): T | undefined;
  export function onScopeDispose(listener: () => void): void;
  export function readonly<T>(target: Ref<T>): Readonly<Ref<T>>;
  export function shallowRef<T>(value: T): Ref<T>;
}
