export { testInfra, type TestInfra } from './infra.js';
export { uniqueName } from './names.js';
