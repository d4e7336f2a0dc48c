/// <reference types="vite/client" />
import type { Bridge } from '../shared/contract';

declare global {
  interface Window {
    /** The contract, exposed by the Electron preload; absent in browser mode. */
    eo?: Bridge;
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
