// Loaded on demand by the React pane: turns a format=react answer's TSX
// source into a component in the browser. Sucrase strips the types and the
// JSX (the module is TypeScript), its imports become require() calls, and
// require answers from the packages bundled here: exactly the four the
// module may import (plus React's JSX runtime).
import { transform } from 'sucrase';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as hookForm from 'react-hook-form';
import * as zod from 'zod';
import * as resolvers from '@hookform/resolvers/zod';

const PACKAGES = {
  react: React,
  'react/jsx-runtime': jsxRuntime,
  'react-hook-form': hookForm,
  zod,
  '@hookform/resolvers/zod': resolvers,
};

/** The module's exports ({default: Component, ...Schema}) from its source. */
export function loadModule(source) {
  const { code } = transform(source, { transforms: ['typescript', 'jsx', 'imports'], jsxRuntime: 'automatic', production: true });
  const module = { exports: {} };
  const require = (name) => {
    if (!(name in PACKAGES)) throw new Error(`the module imports ${name}, which the playground does not provide`);
    return PACKAGES[name];
  };
  // The source is the worker's answer, shown above; it runs with the page's
  // own packages and nothing else in scope.
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports;
}
