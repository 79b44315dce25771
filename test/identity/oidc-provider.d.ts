// oidc-provider ships no types; the tests use it as a black box.
declare module 'oidc-provider';
