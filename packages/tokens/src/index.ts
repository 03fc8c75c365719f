export {
  ACCESS_TOKEN_ALG,
  signAccessToken,
  verifyAccessToken,
  type AccessTokenClaims,
  type TokenAudience,
  type TokenRejection,
  type TokenVerification,
  type VerifyOptions,
} from './access-token.js';
