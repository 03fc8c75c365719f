// Prettier formats the TypeScript and JavaScript sources (.prettierignore leaves everything else,
// generated code and build output alone); `npm run format` applies it, `npm test` checks it.
// The options are the house style the code was written in: single quotes, trailing commas, lines
// up to 160 characters.
/** @type {import('prettier').Config} */
export default {
  printWidth: 160,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
};
