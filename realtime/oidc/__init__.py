"""Staff sign-in through a clinic's own OpenID Connect provider (docs/protocol.md, "Staff
sign-in through the clinic's identity provider"; docs/security.md, "Identity providers").

- config: which clinics have a provider (the OIDC_PROVIDERS setting, else the one a
  clinic_admin set in the workspace) and its client credentials;
- sealing: secrets kept in the database (client secrets, refresh tokens) encrypted with a
  key derived from SECRET_KEY;
- discovery: the provider's metadata and signing keys, cached per node;
- id_token: what an ID token must be before anyone is signed in with it;
- flow: the authorization code flow with PKCE, state and nonce, and the callback;
- recheck: sessions signed in there are asked about again at the provider, and end.
"""
